import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { Role } from '../../../workers/core/types';
import { keepStorage, readStorageStatus, type StorageStatus } from '../../components/browser-storage';
import { DetailList } from '../../components/detail-list';
import { formatBytes } from '../../components/format';
import { SectionCard } from '../../components/section-card';

type Reading = { state: 'loading' } | { state: 'unsupported' } | { state: 'failed' } | { state: 'read'; status: StorageStatus };

async function readStorage(): Promise<Reading> {
  try {
    const status = await readStorageStatus();
    return status ? { state: 'read', status } : { state: 'unsupported' };
  } catch (caught) {
    console.warn('MedLedger: the storage estimate failed', caught);
    return { state: 'failed' };
  }
}

// A doctor keeps no records of their own: where their patients' are, and where their own account's backup is.
const DOCTOR_BACKUP =
  "Your patients' records live with your patients, who can each download a backup of them from their Medical Records screen. Your own account's backup is on this page, under Your backup.";

// The browser's storage for MedLedger: used, available, and whether the browser may evict it (docs/decisions/offline-app.md).
// `shared`: this device is linked to a sync server, which keeps what it sent (the profile page reads the sync status)
export function StorageCard({ role = 'patient', shared = false }: { role?: Role; shared?: boolean }) {
  const doctor = role === 'doctor';
  const [reading, setReading] = useState<Reading>({ state: 'loading' });
  const [declined, setDeclined] = useState(false);
  const [asking, setAsking] = useState(false);
  const where = shared ? 'kept in this browser and copied to the sync server' : 'stored only in this browser';

  useEffect(() => {
    let shown = true;
    void readStorage().then((next) => shown && setReading(next)); // readStorage never rejects
    return () => {
      shown = false;
    };
  }, []);

  const askToKeep = async () => {
    setAsking(true);
    const kept = await keepStorage().catch(() => false);
    setDeclined(!kept);
    setAsking(false);
    setReading(await readStorage());
  };

  return (
    <SectionCard title="Storage on This Device" icon="box">
      {reading.state === 'loading' ? <p className="mb-0">Checking the browser's storage...</p> : null}
      {reading.state === 'unsupported' || reading.state === 'failed' ? (
        <p className="mb-0">
          This browser does not say how much storage MedLedger uses or whether it is kept.{' '}
          {doctor ? DOCTOR_BACKUP : 'Make a backup of your records to be safe.'}
        </p>
      ) : null}
      {reading.state === 'read' ? (
        <>
          <DetailList
            fields={[
              ['Used', formatBytes(reading.status.usage)],
              ['Available', formatBytes(Math.max(reading.status.quota - reading.status.usage, 0))],
              [
                'Persistent',
                reading.status.persisted
                  ? 'Yes: the browser keeps this data until you delete it'
                  : 'No: the browser may delete it',
              ],
            ]}
          />
          {reading.status.persisted ? null : (
            <Alert variant="warning" className="mb-0 mt-3">
              {doctor ? (
                <p>
                  MedLedger's data is {where}, and the browser may delete its copy without asking when the device runs low on
                  space. To keep it, install MedLedger (Install in the browser's menu) and ask the browser to keep its data.{' '}
                  {DOCTOR_BACKUP}
                </p>
              ) : (
                <p>
                  Your records are {where}, and the browser may delete its copy without asking when the device runs low on space.
                  To keep them, install MedLedger (Install in the browser's menu) and ask the browser to keep its data, and make a
                  backup of your records.
                </p>
              )}
              <Button variant="outline-dark" size="sm" disabled={asking} onClick={() => void askToKeep()}>
                {asking ? 'Asking...' : 'Ask the browser to keep the data'}
              </Button>
              {declined ? (
                <p className="mb-0 mt-2" role="status">
                  The browser declined for now. Browsers usually agree once MedLedger is installed or bookmarked.
                </p>
              ) : null}
            </Alert>
          )}
        </>
      ) : null}
    </SectionCard>
  );
}
