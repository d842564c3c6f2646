// Small builders shared by the ledger tests: accounts, files, a settable clock, a storage that refuses writes.
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DOCTORS, PATIENTS, findUser } from '../../workers/core/directory';
import type { FileInput, LedgerService, UploadRequest } from '../../workers/api';
import type { LedgerStorage, StorageWrite } from '../../workers/storage/ledger-storage';

export const SARAH = PATIENTS[0]; // patient-1, doctor-1's patient
export const MICHAEL = PATIENTS[1]; // patient-2, doctor-2's patient
export const CARTER = DOCTORS[0]; // doctor-1
export const WILSON = DOCTORS[1]; // doctor-2

type Account = { email: string; role: 'patient' | 'doctor' };

export function signInAs(service: Pick<LedgerService, 'signIn'>, account: Account) {
  return service.signIn(account.email, DEMO_PASSWORD, account.role);
}

// Signs in the listed user with this id, with the demo password: the session a test's app then resumes.
export function signInById(service: Pick<LedgerService, 'signIn'>, id: string) {
  const user = findUser(id);
  if (!user) throw new Error(`no listed user ${id}`);
  return service.signIn(user.email, DEMO_PASSWORD, user.role);
}

export function fileInput(name: string, content: string | number = 'scan', type = ''): FileInput {
  const bytes = typeof content === 'number' ? new Uint8Array(content).fill(7) : new TextEncoder().encode(content);
  return { name, type, bytes: bytes.buffer as ArrayBuffer };
}

export function uploadOf(
  title: string,
  files: FileInput[] = [fileInput('report.pdf')],
  extra: Partial<UploadRequest> = {},
): UploadRequest {
  return { title, type: 'test_report', files, ...extra };
}

export function textOf(bytes: ArrayBuffer): string {
  return new TextDecoder().decode(bytes);
}

export const MINUTE = 60_000;
// The instant the tests' ledgers and clocks start at (ms since the epoch).
export const START = Date.parse('2026-03-02T10:00:00.000Z');

// A clock the test moves by hand (ms since the epoch).
export function createClock(start = START) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
    set: (ms: number) => {
      time = ms;
    },
  };
}

// Wraps a storage so a test can make the next commits fail, as a full disk or a blocked database would.
export function createFailingStorage(inner: LedgerStorage) {
  let failing: ((write: StorageWrite) => boolean) | null = null;
  const storage: LedgerStorage = {
    load: () => inner.load(),
    readMeta: (key) => inner.readMeta(key),
    readContent: (id) => inner.readContent(id),
    async commit(write) {
      if (failing?.(write)) {
        const error = new Error('The quota has been exceeded.');
        error.name = 'QuotaExceededError';
        throw error;
      }
      return inner.commit(write);
    },
  };
  return {
    storage,
    failWhen: (predicate: ((write: StorageWrite) => boolean) | null) => {
      failing = predicate;
    },
  };
}

// Rejects with the thrown error so a test can check its name and message together.
export async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected a rejection');
}

// What every refused read looks like once it has crossed the boundary (the catalogue in workers/core/errors.ts).
export const DENIED = { name: 'AccessDeniedError', message: 'Access denied: Insufficient permissions' };
