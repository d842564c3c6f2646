interface LengthNoteProps {
  id: string; // the field's id: the note's ids are `${id}-limit` and `${id}-count`
  what: string;
  length: number;
  max: number;
}

// Under a text field: the stated limit as a running count, and the worker's own words once it is passed.
export function LengthNote({ id, what, length, max }: LengthNoteProps) {
  const over = length > max;
  return (
    <div className="length-note">
      {over ? (
        <div id={`${id}-limit`} className="invalid-feedback d-block">
          {`The ${what} is longer than ${max} characters.`}
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
