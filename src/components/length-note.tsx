interface LengthNoteProps {
  id: string; // the field's id: the note's ids are `${id}-limit` and `${id}-count`
  what: string;
  length: number;
  max: number;
  problem?: string | null; // the worker's message for the field's text (text-input.ts), shown in place of the limit
}

// Under a text field: the stated limit as a running count, and the worker's own words once it is passed.
export function LengthNote({ id, what, length, max, problem }: LengthNoteProps) {
  const over = length > max;
  const message = problem ?? (over ? `The ${what} is longer than ${max} characters.` : null);
  return (
    <div className="length-note">
      {message ? (
        <div id={`${id}-limit`} className="invalid-feedback d-block">
          {message}
        </div>
      ) : (
        <span id={`${id}-limit`} className="visually-hidden">
          {`Up to ${max} characters.`}
        </span>
      )}
      <div id={`${id}-count`} className={`form-text ms-auto${over ? ' text-danger' : ''}`}>
        {`${length} / ${max}`}
      </div>
    </div>
  );
}
