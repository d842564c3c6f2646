import { memo } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { BlockSummary, InvalidBlock, SignatureState } from '../../../workers/api';
import { formatDateTime } from '../../components/format';
import { HashBadge } from '../../components/hash-badge';
import { RECORD_TYPE_LABELS } from '../../components/record-type';
import { userName } from '../../components/user-name';

export const ROW_PX = 41; // a row of one line; on a phone a long title wraps and the table measures its rows
export const RESTRICTED_TITLE = 'Restricted record'; // a block of a record the reader may not read

interface BlockRowProps {
  position: number;
  block?: BlockSummary;
  invalidIndex?: number; // the first invalid block: plain values, so an unchanged row is not rendered again
  invalidReason?: string;
  checks?: boolean; // every row says whether it is valid, and why not (the sandbox)
  open?: boolean;
  onOpen?: (index: number) => void;
}

const SIGNATURE_LABELS: Record<SignatureState, { text: string; variant: string }> = {
  holds: { text: 'signature holds', variant: 'success' },
  unchecked: { text: 'checking signature', variant: 'secondary' },
  fails: { text: 'signature fails', variant: 'danger' },
  unsigned: { text: 'unsigned demo block', variant: 'secondary' },
};

// Who signed a block: a listed user's name, or the ledger's own key for system blocks.
function authorName(author: string): string {
  if (author === 'ledger') return 'Ledger (system)';
  return author ? userName(author) : 'nobody';
}

// Why a sandbox row is invalid: its own failed check, the first invalid block's reason, or that it follows it.
export function rowProblem(block: BlockSummary, invalid?: InvalidBlock): string | undefined {
  if (block.problem) return block.problem;
  if (!invalid || block.index < invalid.index) return undefined;
  return block.index === invalid.index ? invalid.reason : `follows invalid block #${invalid.index}`;
}

// An upload written before MedLedger sealed record text: its block holds the text in clear, resealed or not.
function ClearNote({ resealedIn }: { resealedIn?: number }) {
  return (
    <small className="d-block text-body-secondary">
      {resealedIn === undefined ? 'Written in clear' : `Written in clear, sealed again in block ${resealedIn}`}
    </small>
  );
}

export const BlockRow = memo(function BlockRow({
  position,
  block,
  invalidIndex,
  invalidReason,
  checks = false,
  open = false,
  onOpen,
}: BlockRowProps) {
  const invalid = invalidIndex === undefined ? undefined : { index: invalidIndex, reason: invalidReason ?? '' };
  const columns = checks ? 9 : 8;
  if (!block) {
    return (
      <tr aria-rowindex={position + 2} style={{ height: ROW_PX }}>
        <td colSpan={columns} className="text-body-secondary">
          Loading…
        </td>
      </tr>
    );
  }
  const time = <td>{formatDateTime(block.timestamp)}</td>;
  // a restricted block says nothing of its record: no type, title or author, only its place, time and hashes
  const type = <td>{block.restricted ? '' : (RECORD_TYPE_LABELS[block.type] ?? block.type)}</td>;
  const problem = checks ? rowProblem(block, invalid) : invalid?.index === block.index ? invalid.reason : undefined;
  const broken = problem !== undefined;
  return (
    <tr
      aria-rowindex={position + 2}
      style={{ height: ROW_PX }}
      className={
        [broken ? 'table-danger' : open ? 'table-active' : '', onOpen ? 'explorer-row-open' : ''].join(' ').trim() || undefined
      }
      // a click anywhere on the row opens it; its number stays the keyboard's way in
      onClick={onOpen && ((event) => (event.target as HTMLElement).closest('button') === null && onOpen(block.index))}
      data-block-index={block.index}
      data-valid={checks ? String(!broken) : undefined}
    >
      <th scope="row" className="font-monospace">
        {onOpen ? (
          <Button
            variant="link"
            size="sm"
            className="p-0 font-monospace"
            onClick={() => onOpen(block.index)}
            aria-label={`Open block ${block.index}`}
          >
            #{block.index}
          </Button>
        ) : (
          `#${block.index}`
        )}
        {broken && !checks && (
          <Badge bg="danger" className="ms-2">
            invalid
          </Badge>
        )}
        {open && (
          <Badge bg="primary" className="ms-2">
            open
          </Badge>
        )}
        {block.joins !== undefined && (
          <Badge bg="info" text="dark" className="ms-2" title={`Joins ${block.joins} branches written on different devices`}>
            joins {block.joins}
          </Badge>
        )}
        {!block.restricted && block.notApplied !== undefined && (
          <Badge
            bg="warning"
            text="dark"
            className="ms-2"
            title={`Not applied: ${block.notApplied}, written concurrently on another device`}
          >
            not applied<span className="visually-hidden">: {block.notApplied}</span>
          </Badge>
        )}
      </th>
      {checks && (
        <td className={`explorer-check ${broken ? 'text-danger-emphasis' : 'text-success-emphasis'}`} title={problem}>
          {broken ? `Invalid: ${problem}` : 'Valid'}
        </td>
      )}
      {block.restricted ? (
        <>
          <td className="explorer-title text-body-secondary">{RESTRICTED_TITLE}</td>
          <td className="explorer-author" />
        </>
      ) : (
        <>
          <td className="explorer-title" title={block.title}>
            {block.title}
            {block.writtenInClear && <ClearNote resealedIn={block.writtenInClear.resealedIn} />}
          </td>
          <td
            className="explorer-author"
            title={`Signed by ${authorName(block.author)}: ${SIGNATURE_LABELS[block.signature].text}`}
          >
            {authorName(block.author)}{' '}
            <Badge bg={SIGNATURE_LABELS[block.signature].variant}>{SIGNATURE_LABELS[block.signature].text}</Badge>
          </td>
        </>
      )}
      {!checks && time}
      {!checks && type}
      <td>
        <HashBadge hash={block.hash} label={`hash of block ${block.index}`} />
      </td>
      <td>
        <HashBadge hash={block.previousHash} label={`previous hash of block ${block.index}`} />
      </td>
      <td className="text-end font-monospace">{block.nonce}</td>
      {checks && time}
      {checks && type}
    </tr>
  );
});
