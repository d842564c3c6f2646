import Badge from 'react-bootstrap/Badge';
import type { BlockSummary, InvalidBlock } from '../../../workers/api';
import { formatDateTime } from '../../components/format';
import { HashBadge } from '../../components/hash-badge';
import { RECORD_TYPE_LABELS } from '../../components/record-type';

export const ROW_PX = 41; // every row is one line high: the table's spacer rows rely on it

export function BlockRow({ position, block, invalid }: { position: number; block?: BlockSummary; invalid?: InvalidBlock }) {
  if (!block) {
    return (
      <tr aria-rowindex={position + 2} style={{ height: ROW_PX }}>
        <td colSpan={7} className="text-body-secondary">
          Loading…
        </td>
      </tr>
    );
  }
  const broken = invalid?.index === block.index;
  return (
    <tr
      aria-rowindex={position + 2}
      style={{ height: ROW_PX }}
      className={broken ? 'table-danger' : undefined}
      data-block-index={block.index}
    >
      <th scope="row" className="font-monospace">
        #{block.index}
        {broken && (
          <Badge bg="danger" className="ms-2">
            invalid
          </Badge>
        )}
      </th>
      <td>{formatDateTime(block.timestamp)}</td>
      <td>{RECORD_TYPE_LABELS[block.type] ?? block.type}</td>
      <td className="explorer-title" title={block.title}>
        {block.title}
      </td>
      <td>
        <HashBadge hash={block.hash} label={`hash of block ${block.index}`} />
      </td>
      <td>
        <HashBadge hash={block.previousHash} label={`previous hash of block ${block.index}`} />
      </td>
      <td className="text-end font-monospace">{block.nonce}</td>
    </tr>
  );
}
