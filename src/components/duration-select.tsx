import Form from 'react-bootstrap/Form';

interface DurationSelectProps {
  id: string;
  value: number;
  options: readonly { value: number; label: string }[];
  onChange: (value: number) => void;
  className?: string;
}

// The Duration field of the SOS and sharing forms: one labelled select over numeric options.
export function DurationSelect({ id, value, options, onChange, className }: DurationSelectProps) {
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label>Duration</Form.Label>
      <Form.Select value={String(value)} onChange={(event) => onChange(Number(event.target.value))}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
