import { useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { MAX_SEARCH_LENGTH } from '../../../workers/core/constants';
import { checkText } from '../../../workers/core/text-input';
import type { Patient } from '../../../workers/core/types';
import { Icon } from '../../components/icon';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { InitialsAvatar } from '../../components/initials-avatar';

interface PatientSearchProps {
  selected: Patient | null;
  onSelect: (patient: Patient) => void;
}

export function PatientSearch({ selected, onSelect }: PatientSearchProps) {
  const service = useLedger();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; patients: Patient[]; error?: string } | null>(null);
  const problem = checkText('search', query).problem; // the worker's rule: said here, never sent

  useEffect(() => {
    if (problem) return;
    let current = true;
    service.searchPatients(query).then(
      (patients) => current && setFound({ query, patients }),
      (error: unknown) => current && setFound({ query, patients: [], error: userMessage(error, 'Patient search failed.') }),
    );
    return () => {
      current = false;
    };
  }, [service, query, problem]);

  const patients = problem ? [] : (found?.patients ?? []);

  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6">Patient</legend>
      <Form.Label htmlFor="patient-search" className="visually-hidden">
        Search patients by name or ID
      </Form.Label>
      <InputGroup className="mb-2">
        <InputGroup.Text aria-hidden="true">
          <Icon name="search" size={16} />
        </InputGroup.Text>
        <Form.Control
          id="patient-search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Patient name or ID"
          autoComplete="off"
          maxLength={MAX_SEARCH_LENGTH}
          isInvalid={problem !== null}
          aria-invalid={problem !== null || undefined}
          aria-describedby={problem ? 'patient-search-problem' : undefined}
        />
      </InputGroup>

      {problem || found?.error ? (
        <div className="text-danger small" role="alert" id="patient-search-problem">
          {problem ?? found?.error}
        </div>
      ) : null}

      <div className="patient-results" aria-live="polite">
        {found && !found.error && !problem && patients.length === 0 ? (
          <div className="empty-state py-3">No patients match “{found.query}”.</div>
        ) : null}
        {patients.map((patient) => {
          const id = `patient-option-${patient.id}`;
          const checked = selected?.id === patient.id;
          return (
            <label key={patient.id} htmlFor={id} className={`option-card patient-option${checked ? ' is-selected' : ''}`}>
              <input
                className="form-check-input"
                type="radio"
                name="patient"
                id={id}
                checked={checked}
                onChange={() => onSelect(patient)}
              />
              <InitialsAvatar name={patient.name} soft />
              <span className="min-w-0">
                <span className="option-card-title">{patient.name}</span>
                <span className="option-card-text">
                  {patient.id} · {patient.gender} · Blood {patient.bloodType}
                </span>
              </span>
            </label>
          );
        })}
      </div>

      {selected && !patients.some((patient) => patient.id === selected.id) ? (
        <div className="small text-body-secondary mt-2">
          Selected: <strong>{selected.name}</strong> ({selected.id})
        </div>
      ) : null}
    </fieldset>
  );
}
