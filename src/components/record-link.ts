const RECORDS_PATH = '/patient/records';

const ANCHOR_PREFIX = 'record-';

// The element id of a record in the Medical Records list, and the link that opens it highlighted there.
export function recordAnchor(recordId: string): string {
  return `${ANCHOR_PREFIX}${recordId}`;
}

export function recordLink(recordId: string): string {
  return `${RECORDS_PATH}#${recordAnchor(recordId)}`;
}

// The record a location's hash points at, if any.
export function linkedRecordId(hash: string): string | null {
  return hash.startsWith(`#${ANCHOR_PREFIX}`) ? decodeURIComponent(hash.slice(1 + ANCHOR_PREFIX.length)) : null;
}
