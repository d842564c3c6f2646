// The demo ledger every fresh browser (and every reset) holds: one genesis and one set of enrolled demo keys, shipped
// with the app (workers/core/demo-ledger.json, made by scripts/make-demo-ledger.mjs), so devices and backups of the
// demo meet on the same chain (docs/decisions/one-demo-ledger.md).
import { createGenesisBlock } from './chain';
import { genesisRecord } from './ledger-records';
import { verifyLedger } from './projection';
import {
  createStoredKeys,
  enrolmentOf,
  exportKeys,
  firstSignatureFailure,
  importKeys,
  signBlock,
  type PortableKeys,
  type StoredKeys,
} from './signatures';
import type { Block } from './types';
import shipped from './demo-ledger.json';

export interface DemoLedger {
  genesis: Block;
  keys: PortableKeys; // the users' keys wrapped under the demo password, and the ledger's key (pkcs8): the demo's, public
}

export const SHIPPED_DEMO_LEDGER = shipped as DemoLedger;

// True when this browser holds a ledger that is not the demo ledger `demo` (an earlier MedLedger made every browser
// one of its own): devices and backups of the demo ledger cannot meet it.
export function isOtherThanDemo(genesis: Block | undefined, demo: DemoLedger | undefined): boolean {
  return !!demo && !!genesis && genesis.hash !== demo.genesis.hash;
}

// A genesis that enrols `keys` and is signed by their ledger key, or null when it would not verify (keys edited at rest).
export async function signedGenesis(keys: StoredKeys, id: string, timestamp: string, difficulty: number): Promise<Block | null> {
  const ledgerKey = keys.ledger.privateKey;
  if (!ledgerKey) return null; // keys taken from a sync server cannot start a new ledger
  try {
    const record = genesisRecord(id, timestamp, enrolmentOf(keys));
    const genesis = await signBlock(createGenesisBlock(record, timestamp, difficulty), ledgerKey);
    const { firstInvalid, state } = verifyLedger([genesis], difficulty);
    if (firstInvalid || !state.enrolment) return null;
    return (await firstSignatureFailure([genesis], state.enrolment, new Map())) ? null : genesis;
  } catch {
    return null;
  }
}

export interface DemoLedgerSettings {
  userIds: readonly string[];
  password: string;
  iterations: number; // PBKDF2 rounds of the users' keys: PBKDF2_ITERATIONS for the shipped one, few in tests
  difficulty: number;
  id: string; // the genesis record's id
  timestamp: string; // ISO 8601: the genesis's time, before any block a device writes
}

export async function makeDemoLedger(settings: DemoLedgerSettings): Promise<DemoLedger> {
  const keys = await createStoredKeys(settings.userIds, settings.password, settings.iterations);
  const genesis = await signedGenesis(keys, settings.id, settings.timestamp, settings.difficulty);
  if (!genesis) throw new Error('The demo genesis block did not verify.');
  return { genesis, keys: await exportKeys(keys) };
}

// The demo ledger's genesis and its keys as this browser stores them, or null when the keys are not the ones the
// genesis enrols or the genesis does not verify (an edited app).
export async function openDemoLedger(demo: DemoLedger, difficulty: number): Promise<{ genesis: Block; keys: StoredKeys } | null> {
  const { firstInvalid, state } = verifyLedger([demo.genesis], difficulty);
  if (firstInvalid || !state.enrolment) return null;
  if (await firstSignatureFailure([demo.genesis], state.enrolment, new Map())) return null;
  const keys = await importKeys(demo.keys, state.enrolment);
  return keys ? { genesis: demo.genesis, keys } : null;
}
