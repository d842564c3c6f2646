import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { User } from '../../../workers/core/types';
import { useSession } from '../../auth/use-session';
import { birthDate, DetailList, healthOverviewFields, type DetailFields } from '../../components/detail-list';
import { EmailText } from '../../components/email-text';
import { formatDate } from '../../components/format';
import { SectionCard } from '../../components/section-card';
import { useScrollToSection } from '../../components/use-scroll-to-section';
import { useSyncStatus } from '../../ledger/use-sync-status';
import { BackupCard } from './backup-card';
import { StorageCard } from './storage-card';
import { SyncCard } from './sync-card';
import { userName } from '../../components/user-name';

function accountFields(user: User): DetailFields {
  return [
    ['Name', user.name],
    ['Email', <EmailText email={user.email} />],
    ['Role', user.role === 'patient' ? 'Patient' : 'Doctor'],
    [user.role === 'patient' ? 'Patient ID' : 'User ID', user.id], // a patient's id is how a doctor can find them
    ['Member Since', <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>],
  ];
}

function roleFields(user: User): DetailFields {
  if (user.role === 'patient') {
    return [
      ['Date of Birth', birthDate(user)],
      ...healthOverviewFields(user),
      ['Doctor', user.doctorId ? userName(user.doctorId) : 'None assigned'],
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
            <li key={id}>{userName(id)}</li>
          ))}
        </ul>
      ) : (
        'None assigned'
      ),
    ],
  ];
}

// Read-only: every field the user list holds for the signed-in user's role (docs/decisions/real-screens.md).
export function ProfilePage() {
  const { user } = useSession();
  const sync = useSyncStatus().data; // where the records live beside this browser, for the storage card
  useScrollToSection();
  if (!user) return null;
  const patient = user.role === 'patient';

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">My Profile</h1>
        <p className="page-subtitle">Your details in MedLedger. They cannot be changed in this demo.</p>
      </div>
      <Row className="g-3">
        <Col lg={6}>
          <SectionCard title="Account" icon="user" fill>
            <DetailList fields={accountFields(user)} />
          </SectionCard>
        </Col>
        <Col lg={6}>
          <SectionCard title={patient ? 'Health Details' : 'Professional Details'} icon={patient ? 'heart' : 'activity'} fill>
            <DetailList fields={roleFields(user)} />
          </SectionCard>
        </Col>
        <Col lg={6}>
          <StorageCard role={user.role} shared={sync !== undefined && sync.state !== 'off' && sync.state !== 'refused'} />
        </Col>
        <Col lg={6}>
          <SyncCard />
        </Col>
        {patient ? null : (
          <Col lg={6}>
            <BackupCard />
          </Col>
        )}
      </Row>
    </>
  );
}
