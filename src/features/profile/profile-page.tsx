import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { ReactNode } from 'react';
import { findUser } from '../../../workers/core/directory';
import type { User } from '../../../workers/core/types';
import { useSession } from '../../auth/use-session';
import { formatDate } from '../../components/format';
import { SectionCard } from '../../components/section-card';

type Fields = readonly (readonly [term: string, value: ReactNode])[];

function nameOf(id: string): string {
  return findUser(id)?.name ?? id;
}

function accountFields(user: User): Fields {
  return [
    ['Name', user.name],
    ['Email', user.email],
    ['Role', user.role === 'patient' ? 'Patient' : 'Doctor'],
    ['User ID', user.id],
    ['Member Since', <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>],
  ];
}

function roleFields(user: User): Fields {
  if (user.role === 'patient') {
    return [
      // a calendar date: read at local noon so no time zone moves it to another day
      ['Date of Birth', <time dateTime={user.dateOfBirth}>{formatDate(`${user.dateOfBirth}T12:00:00`)}</time>],
      ['Gender', user.gender],
      ['Blood Type', user.bloodType],
      ['Allergies', user.allergies.length > 0 ? user.allergies.join(', ') : 'None'],
      ['Emergency Contact', user.emergencyContact],
      ['Doctor', user.doctorId ? nameOf(user.doctorId) : 'None assigned'],
    ];
  }
  return [
    ['Specialization', user.specialization],
    ['License Number', user.licenseNumber],
    ['Hospital', user.hospital],
    [
      'Patients',
      user.patients.length > 0 ? (
        <ul className="list-unstyled mb-0">
          {user.patients.map((id) => (
            <li key={id}>{nameOf(id)}</li>
          ))}
        </ul>
      ) : (
        'None assigned'
      ),
    ],
  ];
}

function detailList(fields: Fields) {
  return (
    <dl className="detail-list">
      {fields.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

// D12: read-only, every field of SEED.md section 3 for the signed-in user's role, from the user list.
export function ProfilePage() {
  const { user } = useSession();
  if (!user) return null;
  const patient = user.role === 'patient';

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">My Profile</h1>
        <p className="page-subtitle">Your details as the MedLedger user list holds them. They are read-only in this demo.</p>
      </div>
      <Row className="g-3">
        <Col lg={6}>
          <SectionCard title="Account" icon="user" fill>
            {detailList(accountFields(user))}
          </SectionCard>
        </Col>
        <Col lg={6}>
          <SectionCard title={patient ? 'Health Details' : 'Professional Details'} icon={patient ? 'heart' : 'activity'} fill>
            {detailList(roleFields(user))}
          </SectionCard>
        </Col>
      </Row>
    </>
  );
}
