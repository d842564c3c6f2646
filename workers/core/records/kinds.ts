// Every record kind's module, named once by its record types: the chain's rules, the projection and the shape check
// dispatch here (chain-rules.ts, projection.ts, record-format.ts), and the README's list of clear fields is read
// from here (tests/unit/clear-fields-readme.test.ts).
import type { ChainRecord } from '../types';
import { ACKNOWLEDGEMENT } from './acknowledgement';
import { CARE_CONSENT } from './care-consent';
import { DELETION } from './deletion';
import { EMERGENCY, GRANT_DETAILS } from './emergency';
import { GENESIS } from './genesis';
import type { RecordKind } from './kind';
import { RESEALED } from './resealed';
import type { SealedShape } from './shape';
import { SHARE, SHARE_DETAILS } from './share';
import { FILE, UPLOAD } from './upload';

type Kinds = { [T in ChainRecord['type']]: RecordKind<Extract<ChainRecord, { type: T }>> };

export const KINDS: Kinds = {
  diagnosis: GENESIS,
  prescription: UPLOAD,
  test_report: UPLOAD,
  emergency_access: EMERGENCY,
  document_deleted: DELETION,
  access_acknowledged: ACKNOWLEDGEMENT,
  access_shared: SHARE,
  care_consent: CARE_CONSENT,
  resealed: RESEALED,
};

// The kind of `record`, or undefined for a stored value of no known kind: its type may be anything, even an object
// whose conversion to text throws, so it is compared as a string only.
export function kindOf(record: ChainRecord): RecordKind | undefined {
  const type: unknown = record.type;
  return typeof type === 'string' && Object.hasOwn(KINDS, type) ? (KINDS[type as ChainRecord['type']] as RecordKind) : undefined;
}

export const CLEAR_KINDS: readonly { name: string; kind: SealedShape }[] = [
  { name: 'genesis (`diagnosis`, the first block only)', kind: GENESIS },
  { name: 'upload (`prescription`, `test_report`)', kind: UPLOAD },
  { name: "an upload's file", kind: FILE },
  { name: 'emergency access (`emergency_access`: granted, read, ended, expired)', kind: EMERGENCY },
  { name: "an emergency access's details (`emergency`)", kind: GRANT_DETAILS },
  { name: 'share (`access_shared`: shared, read, revoked)', kind: SHARE },
  { name: "a share's details (`share`)", kind: SHARE_DETAILS },
  { name: 'deletion (`document_deleted`)', kind: DELETION },
  { name: 'acknowledgement (`access_acknowledged`)', kind: ACKNOWLEDGEMENT },
  { name: 'care-network consent (`care_consent`)', kind: CARE_CONSENT },
  { name: 're-sealing (`resealed`)', kind: RESEALED },
];
