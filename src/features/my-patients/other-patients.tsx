import Badge from 'react-bootstrap/Badge';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router-dom';
import { PATIENTS } from '../../../workers/core/directory';
import type { Doctor } from '../../../workers/core/types';
import { formatTime } from '../../components/format';
import { Icon } from '../../components/icon';
import { SectionCard } from '../../components/section-card';
import { InitialsAvatar } from '../../components/initials-avatar';
import { useActiveGrants } from '../../ledger/use-active-grants';

// Patients outside the doctor's list: reachable only through SOS emergency access, which the patient sees.
export function OtherPatients({ doctor }: { doctor: Doctor }) {
  const others = PATIENTS.filter((patient) => !doctor.patients.includes(patient.id));
  const openGrants = useActiveGrants().data ?? [];
  if (others.length === 0) return null;

  return (
    <SectionCard title="Other Patients" icon="alert" flush>
      <p className="other-patients-note">
        Their records open only when they share them with you, or through an SOS emergency access: it is time-limited, recorded on
        the chain and shown to the patient.
      </p>
      <ListGroup variant="flush" as="ul">
        {others.map((patient) => {
          const open = openGrants.find((grant) => grant.patientId === patient.id); // newest first
          return (
            <ListGroup.Item as="li" key={patient.id} className="patient-item">
              <InitialsAvatar name={patient.name} soft />
              <div className="min-w-0 flex-grow-1">
                <div className="fw-semibold">{patient.name}</div>
                <div className="record-meta">
                  <span>{patient.id}</span>
                  {open ? (
                    <Badge bg="danger" className="other-patient-session">
                      Emergency session open until {formatTime(open.expiresAt)}
                    </Badge>
                  ) : null}
                </div>
              </div>
              {open ? (
                <Link to="/doctor/emergency" className="btn btn-sm btn-danger" aria-label={`Open session for ${patient.name}`}>
                  <Icon name="alert" size={14} /> Open session
                </Link>
              ) : (
                <Link
                  to={`/doctor/emergency?patient=${encodeURIComponent(patient.id)}`}
                  className="btn btn-sm btn-outline-danger sos-shortcut"
                  aria-label={`Emergency access for ${patient.name}`}
                >
                  <Icon name="alert" size={14} /> Emergency access
                </Link>
              )}
            </ListGroup.Item>
          );
        })}
      </ListGroup>
    </SectionCard>
  );
}
