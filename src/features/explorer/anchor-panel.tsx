import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { AnchorCheck, ChainAnchor } from '../../../workers/api';
import { MAX_ANCHOR_CHARS } from '../../../workers/core/constants';
import { formatDateTime, formatNumber } from '../../components/format';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

function fileNameOf(anchor: ChainAnchor): string {
  return `medledger-anchor-block-${anchor.height - 1}-${anchor.savedAt.slice(0, 10)}.json`;
}

function download(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
}

// Today's chain fails a check at some block: nothing from there on is vouched for, whatever its stored hash says.
function InvalidNote({ check }: { check: AnchorCheck }) {
  const invalid = check.firstInvalid;
  if (!invalid) return null;
  return (
    <p className="mt-2 mb-0" data-anchor-invalid={invalid.index}>
      Today's chain fails verification at block #{invalid.index} ({invalid.reason}), so no block from there on can be trusted.
    </p>
  );
}

function CheckResult({ check }: { check: AnchorCheck }) {
  const tip = check.anchor.height - 1;
  const saved = formatDateTime(check.anchor.savedAt);
  if (check.unchanged) {
    return (
      <Alert variant={check.chainValid ? 'success' : 'warning'} data-anchor-result="unchanged">
        <strong>Unchanged up to block #{tip}.</strong> Block #{tip} still has the anchor's hash, and each block's hash covers
        every block before it, so the chain up to there is as it was when the anchor was saved ({saved}).{' '}
        {check.addedSince === 0
          ? 'No block was added since.'
          : `${formatNumber(check.addedSince)} ${check.addedSince === 1 ? 'block was' : 'blocks were'} added since.`}
        <InvalidNote check={check} />
      </Alert>
    );
  }
  const first = check.firstDifferent ?? tip;
  if (check.unverified) {
    return (
      <Alert variant="danger" data-anchor-result="unverified" data-first-different={first}>
        <strong>Not verified from block #{first}.</strong> Block #{first} still shows the anchor's hash but fails verification
        {check.firstInvalid ? ` (${check.firstInvalid.reason})` : ''}, so that hash proves nothing: the chain cannot be called
        unchanged since the anchor was saved ({saved}).
      </Alert>
    );
  }
  return (
    <Alert variant="danger" data-anchor-result="changed" data-first-different={first}>
      <strong>Changed from block #{first}.</strong>{' '}
      {check.missing
        ? `Today's chain ends at block #${check.height - 1}, before the anchor's tip (#${tip}): the blocks from #${first} on are gone.`
        : `Block #${first} no longer has the hash it had when the anchor was saved (${saved}), so it and every block after it were rewritten${check.chainValid ? ', even if the chain still verifies on this device' : ''}.`}
      <InvalidNote check={check} />
    </Alert>
  );
}

// Save anchor: the records chain's tip, shown and downloaded, to keep somewhere else. Check anchor: today's chain
// against a saved one. Only reads the chain (docs/decisions/chain-anchor.md).
export function AnchorPanel() {
  const service = useLedger();
  const id = useId();
  const [saved, setSaved] = useState<ChainAnchor | null>(null);
  const [saveError, setSaveError] = useState('');
  const [text, setText] = useState('');
  const [fileNote, setFileNote] = useState('');
  const [check, setCheck] = useState<AnchorCheck | null>(null);
  const [checkError, setCheckError] = useState('');
  const [busy, setBusy] = useState<'save' | 'check' | null>(null);
  const [downloadUrl, setDownloadUrl] = useState<string | null>(null);

  useEffect(() => () => void (downloadUrl && URL.revokeObjectURL(downloadUrl)), [downloadUrl]);

  const save = async () => {
    setBusy('save');
    setSaveError('');
    try {
      const anchor = await service.saveAnchor();
      // the URL stays for the file link below; it is revoked when the next anchor replaces it, or on leaving
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(anchor, null, 2)}\n`], { type: 'application/json' }));
      setSaved(anchor);
      setDownloadUrl(url);
      download(url, fileNameOf(anchor));
    } catch (caught) {
      setSaveError(userMessage(caught, 'The anchor could not be saved. Try again.'));
    } finally {
      setBusy(null);
    }
  };

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setCheck(null);
    setCheckError('');
    if (!file) return;
    if (file.size > MAX_ANCHOR_CHARS * 4) {
      setFileNote('');
      setCheckError(`The anchor is longer than ${formatNumber(MAX_ANCHOR_CHARS)} characters.`);
      return;
    }
    setText(await file.text());
    setFileNote(`Read ${file.name}.`);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy('check');
    setCheck(null);
    setCheckError('');
    try {
      setCheck(await service.checkAnchor(text));
    } catch (caught) {
      setCheckError(userMessage(caught, 'The anchor could not be checked. Try again.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="anchor-heading">
      <h2 id="anchor-heading" className="h5">
        Anchor
      </h2>
      <p className="text-body-secondary">
        Whoever re-mines a changed block and every block after it leaves a chain that verifies on this device. An anchor catches
        that: it is the records chain's newest block, its height and hash, kept somewhere else. Each block's hash covers every
        block before it, so if that block still has the same hash later, nothing up to it changed.
      </p>
      <Card className="mb-3">
        <Card.Body>
          <Card.Title as="h3" className="h6">
            Save anchor
          </Card.Title>
          <p className="small mb-2">
            Downloads a small JSON file: the tip's height and hash, and the last 8 digits of every block's hash, which say from
            which block a changed chain differs. Keep it off this device, for example by email or on paper.
          </p>
          <Button variant="primary" onClick={() => void save()} disabled={busy !== null}>
            Save anchor
          </Button>
          {saveError && (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {saveError}
            </Alert>
          )}
          {saved && (
            <dl className="row small mt-3 mb-0" data-anchor-saved={saved.height}>
              <dt className="col-sm-3">Height</dt>
              <dd className="col-sm-9">
                {formatNumber(saved.height)} {saved.height === 1 ? 'block' : 'blocks'} (tip: block #{saved.height - 1})
              </dd>
              <dt className="col-sm-3">Tip hash</dt>
              <dd className="col-sm-9">
                <code className="explorer-hash" data-field="tipHash">
                  {saved.tipHash}
                </code>
              </dd>
              <dt className="col-sm-3">Saved</dt>
              <dd className="col-sm-9">{formatDateTime(saved.savedAt)}</dd>
              <dt className="col-sm-3">File</dt>
              <dd className="col-sm-9 text-break">
                {downloadUrl ? (
                  <a href={downloadUrl} download={fileNameOf(saved)}>
                    {fileNameOf(saved)}
                  </a>
                ) : (
                  fileNameOf(saved)
                )}
              </dd>
            </dl>
          )}
        </Card.Body>
      </Card>
      <Card>
        <Card.Body>
          <Card.Title as="h3" className="h6">
            Check anchor
          </Card.Title>
          <Form onSubmit={(event) => void submit(event)}>
            <Form.Group controlId={`${id}-file`} className="mb-2">
              <Form.Label>Anchor file</Form.Label>
              <Form.Control
                type="file"
                accept=".json,application/json"
                onChange={(event) => void chooseFile(event as ChangeEvent<HTMLInputElement>)}
              />
              {fileNote && <Form.Text>{fileNote}</Form.Text>}
            </Form.Group>
            <Form.Group controlId={`${id}-json`} className="mb-2">
              <Form.Label>Or paste the anchor's JSON</Form.Label>
              <Form.Control
                as="textarea"
                rows={3}
                className="font-monospace small"
                value={text}
                onChange={(event) => {
                  setText(event.target.value);
                  setFileNote('');
                }}
              />
            </Form.Group>
            <Button type="submit" variant="primary" disabled={busy !== null || text.trim() === ''}>
              Check anchor
            </Button>
          </Form>
          <div className="mt-3" aria-live="polite">
            {checkError && (
              <Alert variant="danger" className="mb-0" data-anchor-result="refused">
                {checkError}
              </Alert>
            )}
            {check && <CheckResult check={check} />}
          </div>
        </Card.Body>
      </Card>
    </section>
  );
}
