import type { ShareEntry } from '../../../workers/api';
import { DOCTORS } from '../../../workers/core/directory';
import { useSession } from '../../auth/use-session';
import { accessLevelLabel } from '../../components/access-levels';
import { formatDateTime } from '../../components/format';
import { SectionCard } from '../../components/section-card';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

const loadHistory = (service: LedgerRemote) => service.accessHistory(); // module level: stable for useLedgerQuery

const level = (accessLevel: ShareEntry['share']['accessLevel']) => accessLevelLabel(accessLevel).toLowerCase();

// Everyone who can read the patient's records now and why: their own doctor, each active share, each open emergency session.
export function WhoCanRead({ activeShares }: { activeShares: readonly ShareEntry[] }) {
  const patientId = useSession().user?.id ?? '';
  const careTeam = DOCTORS.filter((doctor) => doctor.patients.includes(patientId)); // who reads by the access rule (workers/core/access.ts)
  const emergencies =
    useLedgerQuery(loadHistory, ['grants'], 'access-history:grants').data?.filter((entry) => entry.status === 'active') ?? [];
  const readers: { key: string; name: string; why: string }[] = [
    ...careTeam.map((doctor) => ({ key: doctor.id, name: doctor.name, why: 'your doctor: reads all your records and files' })),
    ...activeShares.map((entry) => ({
      key: entry.share.id,
      name: entry.doctorName,
      why: `through your share: ${level(entry.share.accessLevel)} access ${
        entry.share.expiresAt ? `until ${formatDateTime(entry.share.expiresAt)}` : 'until you revoke it'
      }`,
    })),
    ...emergencies.map((entry) => ({
      key: entry.grantId,
      name: entry.doctorName,
      why: `emergency access: ${level(entry.accessLevel)}, until ${formatDateTime(entry.expiresAt)}`,
    })),
  ];
  return (
    <SectionCard title="Who can read your records" icon="user">
      <ul className="who-can-read">
        <li>
          <strong>You</strong>, on your devices
        </li>
        {readers.map((reader) => (
          <li key={reader.key}>
            <strong>{reader.name}</strong>, {reader.why}
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
