import type { ReactNode } from 'react';
import type { Patient } from '../../workers/core/types';
import { formatDate } from './format';

export type DetailFields = readonly (readonly [term: string, value: ReactNode])[];

// A term/value list: the profile, health overviews and patient cards all read this way.
export function DetailList({ fields, stacked = false }: { fields: DetailFields; stacked?: boolean }) {
  return (
    <dl className={stacked ? 'detail-list detail-list-stacked' : 'detail-list'}>
      {fields.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

// a calendar date: read at local noon so no time zone moves it to another day
export function birthDate(patient: Patient): ReactNode {
  return <time dateTime={patient.dateOfBirth}>{formatDate(`${patient.dateOfBirth}T12:00:00`)}</time>;
}

// The patient's Health Overview: blood type, gender, allergies, emergency contact.
export function healthOverviewFields(patient: Patient): DetailFields {
  return [
    ['Blood Type', patient.bloodType],
    ['Gender', patient.gender],
    ['Allergies', patient.allergies.length > 0 ? patient.allergies.join(', ') : 'None'],
    ['Emergency Contact', patient.emergencyContact],
  ];
}
