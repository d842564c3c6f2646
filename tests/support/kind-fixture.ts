// The ledger of every record kind (tests/unit/fixtures/every-kind-ledger.json), written once by MedLedger before
// record kinds moved to one module each: its storage as JSON, and what the projection and the screens made of it.
import type { LedgerService } from '../../workers/api';
import type { LedgerState } from '../../workers/core/ledger-state';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, MICHAEL, SARAH, WILSON, signInAs } from './ledger-fixtures';
import { recordsWithFileHashes } from './portability-fixtures';

// JSON of a value the storage holds: bytes as { $bytes: base64 }, maps as { $map: entries }.
export function toJson(value: unknown): unknown {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes =
      value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return { $bytes: Buffer.from(bytes).toString('base64') };
  }
  if (value instanceof Map || (value !== null && typeof value === 'object' && 'entries' in value && 'owns' in value))
    return { $map: [...(value as Map<unknown, unknown>).entries()].map(([key, item]) => [key, toJson(item)]) };
  if (Array.isArray(value)) return value.map(toJson);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]));
  return value;
}

export function fromJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJson);
  if (value !== null && typeof value === 'object') {
    if ('$bytes' in value) return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64')).buffer;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fromJson(item)]));
  }
  return value;
}

export async function storageJson(storage: LedgerStorage): Promise<unknown> {
  const stored = await storage.load();
  const contents = await Promise.all(stored.contentIds.map(async (id) => ({ id, bytes: await storage.readContent(id) })));
  return toJson({ blocks: stored.blocks, documents: stored.documents, contents, meta: stored.meta });
}

export async function storageOf(json: unknown): Promise<LedgerStorage> {
  const storage = createMemoryStorage();
  await storage.commit(fromJson(json) as Parameters<LedgerStorage['commit']>[0]);
  return storage;
}

// The projection as plain JSON, to compare two of them whole.
export const stateJson = (state: LedgerState): unknown => JSON.parse(JSON.stringify(toJson(state)));

// What each user's screens show of the ledger, in one order the generator and the test both follow.
export async function viewsOf(service: LedgerService): Promise<unknown> {
  const views: Record<string, unknown> = {};
  await signInAs(service, SARAH);
  views.sarah = {
    records: (await service.listRecords(SARAH.id)).records,
    files: await recordsWithFileHashes(service, SARAH.id),
    history: await service.accessHistory(),
    shares: await service.myShares(),
    overview: await service.patientOverview(),
    consent: await service.careNetworkConsent(),
  };
  await signInAs(service, MICHAEL);
  views.michael = {
    records: (await service.listRecords(MICHAEL.id)).records,
    overview: await service.patientOverview(),
    consent: await service.careNetworkConsent(),
  };
  await signInAs(service, WILSON);
  views.wilson = { overview: await service.doctorOverview(), grants: await service.activeGrants() };
  await signInAs(service, CARTER);
  views.carter = { overview: await service.doctorOverview(), shared: await service.sharedWithMe() };
  views.status = await service.chainStatus();
  views.blocks = await service.blocksPage(0, 200);
  return JSON.parse(JSON.stringify(toJson(views)));
}
