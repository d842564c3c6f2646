import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router-dom';
import { PATIENTS } from '../../../workers/core/directory';
import type { Doctor } from '../../../workers/core/types';
import { Icon } from '../../components/icon';
import { SectionCard } from '../../components/section-card';
import { InitialsAvatar } from '../../components/initials-avatar';

// Patients outside the doctor's list: reachable only through SOS emergency access, which the patient sees.
export function OtherPatients({ doctor }: { doctor: Doctor }) {
  const others = PATIENTS.filter((patient) => !doctor.patients.includes(patient.id));
  if (others.length === 0) return null;

  return (
    <SectionCard title="Other Patients" icon="alert" flush>
      <p className="other-patients-note">
        Their records open only when they share them with you, or through an SOS emergency access: it is time-limited, recorded on
        the chain and shown to the patient.
      </p>
      <ListGroup variant="flush" as="ul">
        {others.map((patient) => (
          <ListGroup.Item as="li" key={patient.id} className="patient-item">
            <InitialsAvatar name={patient.name} soft />
            <div className="min-w-0 flex-grow-1">
              <div className="fw-semibold">{patient.name}</div>
              <div className="record-meta">
                <span>{patient.id}</span>
              </div>
            </div>
            <Link
              to={`/doctor/emergency?patient=${encodeURIComponent(patient.id)}`}
              className="btn btn-sm btn-outline-danger sos-shortcut"
              aria-label={`Emergency access for ${patient.name}`}
            >
              <Icon name="alert" size={14} /> Emergency access
            </Link>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </SectionCard>
  );
}
