import { Fragment } from 'react';

// An email address wraps after its "@" or before a dot, never mid-word ("sarah.johnson@medledger.dem / o").
export function EmailText({ email }: { email: string }) {
  const pieces = email.split(/(?<=@)|(?=\.)/);
  return (
    <span className="email-text">
      {pieces.map((piece, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
