import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import {
  APPOINTMENTS_TODAY,
  DIFFICULTY,
  DOCTOR_SHOWN_RECORDS,
  EMERGENCY_ALERTS,
  TODAYS_SCHEDULE,
} from '../../../workers/core/constants';
import { useSession } from '../../auth/use-session';
import { chainIntegrity, chainVerdict } from '../../components/chain-integrity';
import { formatDate, formatDateTime } from '../../components/format';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { RecordList } from '../../components/record-list';
import { SectionCard } from '../../components/section-card';
import { StatCard } from '../../components/stat-card';
import { useChainStatus } from '../../ledger/use-chain-status';
import { useNamedQuery } from '../../ledger/use-ledger-query';
import { DOCTOR_OVERVIEW, SHARED_WITH_ME } from '../../ledger/shared-queries';
import { InitialsAvatar } from '../../components/initials-avatar';
import { SampleTag } from '../../components/sample-tag';
import { useActiveGrants } from '../../ledger/use-active-grants';
import { EMERGENCY_PATH } from '../../layout/active-grant-bar';
import { Icon } from '../../components/icon';
import { accessLevelLabel } from '../../components/access-levels';
import { ShareExpiry } from '../../components/share-expiry';

const MY_PATIENTS_PATH = '/doctor/patients';

// The doctor's emergency sessions open now: a real count, on its own line so no sample figure stands over it.
function ActiveSessionsLine({ count }: { count: number | undefined }) {
  return (
    <p className="active-sessions-line" role="status" aria-label="Your emergency sessions">
      <Icon name="alert" size={16} />
      {count === undefined ? (
        'Checking your emergency sessions...'
      ) : count === 0 ? (
        'No emergency session open now.'
      ) : (
        <Link to={EMERGENCY_PATH}>{count === 1 ? '1 emergency session open now' : `${count} emergency sessions open now`}</Link>
      )}
    </p>
  );
}

// Shares the doctor has not opened yet: a doctor is told of a new share where they land, with the way to it.
function NewSharesLine() {
  const shares = useNamedQuery(SHARED_WITH_ME).data?.filter((entry) => !entry.opened) ?? [];
  if (shares.length === 0) return null;
  return (
    <ul className="new-shares-line" aria-label="New shares">
      {shares.map(({ share, patient }) => (
        <li key={share.id}>
          <Icon name="share" size={16} />
          <span>
            {patient.name} shared records with you: {accessLevelLabel(share.accessLevel).toLowerCase()} access{' '}
            {share.expiresAt === null ? (
              'until revoked'
            ) : (
              <>
                until <ShareExpiry expiresAt={share.expiresAt} />
              </>
            )}
            . <Link to={`${MY_PATIENTS_PATH}?share=${encodeURIComponent(share.id)}`}>Open them in My Patients</Link>
          </span>
        </li>
      ))}
    </ul>
  );
}

export function DoctorDashboardPage() {
  const { user } = useSession();
  // Recent activity of the doctor's patients: their records, and the emergency access records grants add.
  const query = useNamedQuery(DOCTOR_OVERVIEW);
  const status = useChainStatus();
  const activeGrants = useActiveGrants();

  if (!user || user.role !== 'doctor') return null;
  if (!query.data || !status.data) {
    const error = query.error ?? status.error;
    return error ? (
      <LoadError error={error} what="your dashboard" onRetry={query.error ? query.reload : status.reload} />
    ) : (
      <PageSpinner label="Loading your dashboard" />
    );
  }

  const overview = query.data;
  const chain = status.data;

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Welcome, {user.name}</h1>
        <p className="page-subtitle doctor-credentials">
          <span>{user.specialization}</span>
          <span>{user.hospital}</span>
          <span>License No. {user.licenseNumber}</span>
        </p>
      </div>

      <Row xs={2} xl={4} className="g-3 mb-3">
        <Col>
          <StatCard label="Total Patients" value={overview.patients.length} icon="users" />
        </Col>
        <Col>
          <StatCard label="Records Today" value={overview.recordsToday} icon="file" tone="info" />
        </Col>
        <Col>
          <StatCard label="Appointments" value={APPOINTMENTS_TODAY} icon="calendar" tone="warning" sample />
        </Col>
        <Col>
          <StatCard label="Emergency Alerts" value={EMERGENCY_ALERTS} icon="alert" tone="danger" sample />
        </Col>
      </Row>
      <ActiveSessionsLine count={activeGrants.data?.length} />
      <NewSharesLine />

      <Row className="g-3">
        <Col xl={7}>
          <SectionCard title="Recent Patient Activity" icon="activity" flush fill>
            <RecordList
              records={overview.recentActivity.slice(0, DOCTOR_SHOWN_RECORDS)}
              showPatient
              empty="No recent activity from your patients."
            />
          </SectionCard>
        </Col>
        <Col xl={5}>
          <SectionCard title="Your Patients" icon="users" flush fill>
            {overview.patients.length === 0 ? (
              <div className="empty-state">No patients are assigned to you.</div>
            ) : (
              <ListGroup variant="flush" as="ul">
                {overview.patients.map((patient) => (
                  <ListGroup.Item as="li" key={patient.id} className="patient-item">
                    <InitialsAvatar name={patient.name} soft />
                    <div className="min-w-0">
                      <div className="fw-semibold">{patient.name}</div>
                      <div className="record-meta">
                        <span>{patient.id}</span>
                        <span>Born {formatDate(patient.dateOfBirth)}</span>
                        <span>{patient.gender}</span>
                        <span>Blood {patient.bloodType}</span>
                      </div>
                    </div>
                  </ListGroup.Item>
                ))}
              </ListGroup>
            )}
          </SectionCard>
        </Col>
        <Col xl={7}>
          <SectionCard title="Today's Schedule" icon="calendar" flush fill action={<SampleTag />}>
            <ListGroup variant="flush" as="ul">
              {TODAYS_SCHEDULE.map((entry) => (
                <ListGroup.Item as="li" key={entry.time} className="schedule-item">
                  <span className="schedule-time">{entry.time}</span>
                  <div className="min-w-0">
                    <div className="fw-semibold">{entry.patient}</div>
                    <div className="text-body-secondary small">{entry.purpose}</div>
                  </div>
                </ListGroup.Item>
              ))}
            </ListGroup>
          </SectionCard>
        </Col>
        <Col xl={5}>
          <SectionCard title="Blockchain Analytics" icon="box" fill>
            <dl className="detail-list">
              <div>
                <dt>Total Blocks</dt>
                <dd>{chain.height}</dd>
              </div>
              <div>
                <dt>Chain Integrity</dt>
                <dd className={`${chainVerdict(chain).tone} fw-semibold`}>{chainIntegrity(chain)}</dd>
              </div>
              {chain.firstInvalid ? (
                <div>
                  <dt>First Bad Block</dt>
                  <dd>
                    #{chain.firstInvalid.index}: {chain.firstInvalid.reason}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>Difficulty</dt>
                <dd>
                  {chain.difficulty} leading zeros{chain.difficulty === DIFFICULTY ? '' : ` (default ${DIFFICULTY})`}
                </dd>
              </div>
              <div>
                <dt>Last Block</dt>
                <dd>{formatDateTime(chain.lastBlockTime)}</dd>
              </div>
            </dl>
          </SectionCard>
        </Col>
      </Row>
    </>
  );
}
