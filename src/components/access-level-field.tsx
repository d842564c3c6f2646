import type { AccessLevel } from '../../workers/core/types';
import { ACCESS_LEVELS } from './access-levels';

interface AccessLevelFieldProps {
  name: string; // the radio group's name, also the prefix of its ids
  value: AccessLevel;
  onChange: (level: AccessLevel) => void;
  className?: string;
}

// Basic or full, each with what it shows, as option cards (the SOS form and the share form).
export function AccessLevelField({ name, value, onChange, className }: AccessLevelFieldProps) {
  return (
    <fieldset className={className}>
      <legend className="form-label fs-6">Access level</legend>
      <div className="option-cards">
        {ACCESS_LEVELS.map((option) => {
          const id = `${name}-${option.value}`;
          return (
            <label key={option.value} className={`option-card${value === option.value ? ' is-selected' : ''}`} htmlFor={id}>
              <input
                className="form-check-input"
                type="radio"
                name={name}
                id={id}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                aria-describedby={`${id}-description`}
              />
              <span>
                <span className="option-card-title">{option.label}</span>
                <span className="option-card-text" id={`${id}-description`}>
                  {option.description}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
