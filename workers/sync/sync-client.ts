// One connection of this device to a sync server: prove who it is (or seed, or adopt the server's ledger first), then
// mirror both ways (sync-mirror.ts).
import { MAX_CLOCK_AHEAD_MS } from '../core/constants';
import type { Block } from '../core/types';
import {
  SYNC_PROTOCOL_VERSION,
  type AdoptAnswer,
  type DeviceAnswer,
  type DeviceDoc,
  type JoinAnswer,
  type JoinRequest,
  type LedgerDoc,
  type LedgerInfo,
  type SyncedKeys,
} from '../core/sync-protocol';
import { SyncRefused, SyncRemoved, post, readJson, iso } from './sync-http';
import { mirror } from './sync-mirror';
import { httpOrigin } from './server-address';
import { joinPlan, newDeviceDoc } from './sync-plan';
import type { DocHandleLike, LedgerTaking, RepoLike, SyncClient, SyncOptions, SyncStore, SyncTransport } from './sync-ports';

export { SyncRefused, SyncRemoved };

const REGISTER_TRIES = 3; // POST /api/device answered 'retry' (the server could not fetch the device document yet)

// The server holds another ledger this untouched device could take: nothing changes until the user agrees on the
// Devices card with their password (why: the message).
export class SyncOffersLedger extends Error {
  override name = 'SyncOffersLedger';
}

export const OFFERS_LEDGER =
  'This sync server holds another ledger than this browser, with its own records and keys. To connect, this browser gives up its demo records (nothing you added is in them) and takes the server’s. Enter your password: it opens your key on the server’s ledger, and you stay signed in.';

// Nobody is signed in, so this device cannot prove who it is: it connects once someone signs in.
export class SyncNeedsSignIn extends Error {
  override name = 'SyncNeedsSignIn';
  constructor(readonly adopted: boolean) {
    super('Sign in to connect: the sync server lets in only a device that proves its user’s key.');
  }
}

function isLedgerInfo(value: unknown): value is LedgerInfo {
  const info = value as Partial<LedgerInfo> | null;
  return typeof info === 'object' && info !== null && typeof info.protocol === 'number';
}

function decodeKeys(value: unknown): SyncedKeys | undefined {
  const keys = value as Partial<SyncedKeys> | undefined;
  return keys?.algorithm === 'Ed25519' && typeof keys.users === 'object' && typeof keys.ledger?.publicKey === 'string'
    ? (keys as SyncedKeys)
    : undefined;
}

// The WebSocket address with this device's session, which the server asks for before it opens the socket.
function withSession(serverUrl: string, session: string): string {
  const url = new URL(serverUrl);
  url.searchParams.set('session', session);
  return url.toString();
}

// Why this device's clock is off the server's by more than a block may be, or undefined.
function clockNotice(serverTime: string, now: number): string | undefined {
  const offset = now - Date.parse(serverTime);
  if (!(Math.abs(offset) > MAX_CLOCK_AHEAD_MS)) return undefined;
  const minutes = Math.round(Math.abs(offset) / 60_000);
  return `This device's clock is ${minutes} minutes ${offset > 0 ? 'ahead of' : 'behind'} the sync server's: ${
    offset > 0 ? 'what it writes now is refused by the server and every other device' : 'its blocks are dated in the past'
  }. Check this device's date and time.`;
}

// Joins the server's ledger; rejects with SyncRefused (nothing changed), SyncNeedsSignIn, or a network error (try again later).
export async function startSync(options: SyncOptions): Promise<SyncClient> {
  const { store, transport } = options;
  const origin = httpOrigin(options.serverUrl);
  if (!origin) throw new SyncRefused('The server address must start with ws:// or wss://.');
  const info = await readJson(await transport.fetch(`${origin}/api/ledger`), 'GET /api/ledger');
  if (!isLedgerInfo(info)) throw new SyncRefused('The address answers, but not as a MedLedger sync server.');
  const plan = joinPlan({ genesis: store.blocks()[0]?.hash ?? '', untouched: store.untouched() }, info);
  if (plan.action === 'refuse') throw new SyncRefused(plan.reason);
  if (plan.action === 'adopt') {
    if (!options.takeLedger) throw new SyncOffersLedger(OFFERS_LEDGER);
    await adopt(transport, origin, store, info, options.takeLedger);
  }
  const genesis = store.blocks()[0];
  const { challenge } = (await readJson(await transport.fetch(`${origin}/api/challenge`, post({})), 'POST /api/challenge')) as {
    challenge: string;
  };
  const proof = await options.prove(String(challenge), genesis.hash, options.deviceId);
  if (!proof) throw new SyncNeedsSignIn(plan.action === 'adopt');
  const keys = plan.action === 'seed' ? store.syncedKeys() : undefined;
  const request: JoinRequest = {
    protocol: SYNC_PROTOCOL_VERSION,
    name: options.deviceName,
    proof,
    ...(keys ? { seed: { genesis, keys } } : {}),
  };
  const answer = (await readJson(await transport.fetch(`${origin}/api/join`, post(request)), 'POST /api/join')) as JoinAnswer;
  if (answer && !answer.ok && answer.retry) throw new Error(answer.reason); // passing: tried again like a network error
  if (answer && !answer.ok && answer.removed) throw new SyncRemoved(answer.reason);
  if (!answer?.ok) throw new SyncRefused(answer?.reason || 'The sync server refused this device.');
  const session = answer.session;
  const repo = await transport.openRepo(withSession(options.serverUrl, session));
  try {
    options.keys?.setCareNetworkKey(answer.careNetworkKey ?? null);
    const device = await deviceDoc(repo, options, genesis);
    const url = `${origin}/api/device`;
    let registered: DeviceAnswer | undefined;
    // the server fetches the new document from this device, and may not find it at once: asked again here, not
    // after the retry delay a server that does not answer waits
    for (let tries = 1; tries <= REGISTER_TRIES; tries++) {
      registered = (await readJson(
        await transport.fetch(url, post({ deviceUrl: device.url }, session)),
        'POST /api/device',
      )) as DeviceAnswer;
      if (registered?.ok || !registered?.retry) break;
    }
    if (registered && !registered.ok && registered.retry) throw new Error(registered.reason);
    if (!registered?.ok) throw new SyncRefused(registered?.reason || 'The sync server refused this device.');
    const ledger = await repo.find<LedgerDoc>(answer.ledgerUrl);
    const notice = clockNotice(answer.serverTime, options.now());
    return {
      ...mirror(repo, device, ledger, options, origin, session, notice),
      adopted: plan.action === 'adopt',
      genesis: genesis.hash,
    };
  } catch (error) {
    options.keys?.setCareNetworkKey(null);
    await repo.shutdown().catch(() => undefined);
    throw error;
  }
}

// The server's ledger replaces this device's untouched demo ledger: its genesis and the users' wrapped keys; the
// rest of its blocks come once a user of it signs in here and this device proves who it is.
async function adopt(
  transport: SyncTransport,
  origin: string,
  store: SyncStore,
  info: LedgerInfo,
  taking: LedgerTaking,
): Promise<void> {
  const answer = (await readJson(await transport.fetch(`${origin}/api/adopt`), 'GET /api/adopt')) as Partial<AdoptAnswer>;
  const keys = decodeKeys(answer?.keys);
  if (!info.genesis || !keys || (answer.genesis as Partial<Block> | undefined)?.hash !== info.genesis)
    throw new SyncRefused("The server's ledger is incomplete: try again.");
  const closed = await taking.opens(keys); // before anything changes here
  if (closed) throw new SyncOffersLedger(closed);
  try {
    await store.adopt(info.genesis, [answer.genesis], keys);
  } catch (error) {
    throw new SyncRefused(error instanceof Error ? error.message : "The server's ledger could not be taken.");
  }
  await taking.signIn();
}

// This device's document: the one of an earlier connection to this ledger, or a new one.
async function deviceDoc(repo: RepoLike, options: SyncOptions, genesis: Block): Promise<DocHandleLike<DeviceDoc>> {
  if (options.deviceUrl) {
    const earlier = await repo.find<DeviceDoc>(options.deviceUrl).catch(() => null);
    const doc = earlier?.doc();
    if (earlier && doc?.deviceId === options.deviceId && doc.genesis === genesis.hash) {
      if (doc.name !== options.deviceName) earlier.change((d) => void (d.name = options.deviceName));
      return earlier;
    }
  }
  return repo.create<DeviceDoc>(newDeviceDoc(options.deviceId, options.deviceName, genesis, iso(options.now())));
}
