import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

const RECORDS = ['records'] as const;

function recordsLabel(count: number): string {
  return count === 1 ? '1 of your records was' : `${count} of your records were`;
}

// Records written before MedLedger sealed record text keep it in clear on every copy of the chain: the patient seals
// them again on consent, one block each (docs/decisions/nothing-medical-in-clear.md).
export function SealClearRecords() {
  const service = useLedger();
  const load = useCallback((remote: LedgerRemote) => remote.clearRecordCount(), []);
  const { data: count, reload } = useLedgerQuery(load, RECORDS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [sealed, setSealed] = useState<number | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (sealed !== null || error) noticeRef.current?.focus();
  }, [sealed, error]);

  const seal = async () => {
    setBusy(true);
    setError('');
    try {
      setSealed(await service.sealClearRecords());
      reload();
    } catch (caught) {
      setError(userMessage(caught, 'The records could not be sealed.'));
    } finally {
      setBusy(false);
    }
  };

  if (sealed !== null)
    return (
      <Alert variant="success" ref={noticeRef} tabIndex={-1} role="status" dismissible onClose={() => setSealed(null)}>
        Sealed {sealed === 1 ? '1 record' : `${sealed} records`}: their text now travels sealed in new blocks. The old blocks stay
        on the chain, on every copy that holds them: sealing again erases nothing.
      </Alert>
    );
  if (!count) return null;
  return (
    <Alert variant="warning" ref={noticeRef} tabIndex={-1}>
      <p className="mb-2">
        {recordsLabel(count)} written before MedLedger sealed record text: their titles, descriptions and file names are in clear
        on the chain, so the sync server and every device of this ledger can read them. Seal them in new blocks that only your
        readers can open? The old blocks stay (nothing on a chain is erased).
      </p>
      {error ? <p className="text-danger mb-2">{error}</p> : null}
      <Button size="sm" variant="warning" onClick={() => void seal()} disabled={busy}>
        {busy ? 'Sealing…' : 'Seal them'}
      </Button>
    </Alert>
  );
}
