// The sync capability: Connect, Disconnect and the state of this device's link to a sync server. Off by default:
// nothing here calls a server until the user connects. The sync code itself (sync-client.ts, Automerge-repo and
// its wasm) is imported only then.
import type { LedgerService, SyncStatus } from '../api';
import { fail, type LedgerDeps } from '../ledger/deps';
import type { LedgerStore } from '../ledger/store';
import type { User } from '../core/types';
import { unlockUserKeys, type WrappedUserKey } from '../core/signatures';
import type { LedgerTaking, SyncClient, SyncKeys, SyncOptions, SyncStore, SyncTransport } from './sync-ports';
import { httpOrigin } from './server-address';
import { storePort } from './store-port';

export const SYNC_KEY = 'sync'; // storage meta: the link's settings, so a reload reconnects by itself
const RETRY_MS = 5_000; // a server that does not answer is asked again this often
const MAX_NAME = 60;
const NOT_ON_LEDGER = 'Your account is not on the sync server’s ledger, so this browser cannot take it. Nothing was changed.';
const WRONG_PASSWORD = 'That password does not open your key on the sync server’s ledger. Nothing was changed.';
const REMOVED =
  'This device was removed from the sync server by another of your devices. Nothing here was changed. Connect to add it again as a new device.';
const MAX_DEVICE_ID = 200; // the server's limit (server/wire-checks.ts)

interface SyncSettings {
  on: boolean;
  serverUrl: string;
  deviceName: string;
  deviceId: string;
  deviceUrl?: string; // this device's document on the server
}

type Link =
  | { state: 'off' }
  | { state: 'connecting'; reason?: string } // reason: it waits for a sign-in to prove who it is
  | { state: 'refused'; reason: string; otherLedger?: true } // otherLedger: the user may take the server's ledger
  | { state: 'offline'; since: number } // the server did not answer: asked again
  | { state: 'connected'; client: SyncClient };

function isSettings(value: unknown): value is SyncSettings {
  const s = value as Partial<SyncSettings> | null;
  return typeof s === 'object' && s !== null && typeof s.serverUrl === 'string' && typeof s.deviceId === 'string';
}

async function realTransport(): Promise<SyncTransport> {
  const { openRepo } = await import('./automerge-repo');
  return { fetch: (url, init) => fetch(url, init), openRepo };
}

export function createSync(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  prove: SyncOptions['prove'], // signs the server's challenge with the signed-in user's key; null when nobody is
  signIn: (user: User, password: string) => Promise<boolean>, // false: that password does not open their key here
  signOut: () => Promise<void>,
  changed: () => void,
  keys?: SyncKeys,
  fileProgress?: SyncStore['fileProgress'], // files on their way here (workers/ledger/arrivals.ts)
) {
  let settings: SyncSettings | null = null;
  let link: Link = { state: 'off' };
  let attempt = 0; // a newer Connect or a Disconnect makes an older attempt's answer moot
  let adoptedNow = false; // the last Connect took the server's ledger
  let taking: LedgerTaking | undefined; // the user agreed, with their password, to take the server's ledger
  let retry: ReturnType<typeof setTimeout> | undefined;
  // taking the server's ledger replaces everything stored, this link's settings too: they are written again, so a
  // reload while the rest of the ledger is still being taken connects again
  const port = storePort(
    deps,
    store,
    async () => {
      if (settings) await save(settings).catch(() => undefined);
    },
    fileProgress,
  );

  function setLink(next: Link): void {
    link = next;
    changed();
  }

  async function save(next: SyncSettings): Promise<void> {
    settings = next;
    await deps.storage.commit({ meta: { [SYNC_KEY]: next } });
  }

  async function stop(): Promise<void> {
    attempt++;
    clearTimeout(retry);
    retry = undefined;
    const previous = link;
    link = { state: 'off' };
    if (previous.state === 'connected') await previous.client.close().catch(() => undefined);
  }

  // One attempt to join; a server that does not answer is asked again until Disconnect.
  async function connect(mine: number): Promise<void> {
    const current = settings;
    if (!current) return;
    try {
      await store.ready();
      const { startSync, SyncRefused, SyncRemoved, SyncNeedsSignIn, SyncOffersLedger } = await import('./sync-client');
      const transport = deps.syncTransport ?? (await realTransport());
      try {
        const client = await startSync({
          ...current,
          store: port,
          prove,
          ...(keys ? { keys } : {}),
          transport,
          now: deps.now,
          changed: () => mine === attempt && changed(),
          sessionEnded: () => void (mine === attempt && rejoin()),
          ...(taking ? { takeLedger: taking } : {}),
        });
        if (mine !== attempt) return void (await client.close());
        setLink({ state: 'connected', client });
        if (client.deviceUrl !== current.deviceUrl) await save({ ...current, deviceUrl: client.deviceUrl });
      } catch (error) {
        if (mine !== attempt) return;
        if (error instanceof SyncRemoved) {
          // its old id stays refused: a Connect joins under a new one, proving the user's key again; no reconnect by itself
          await save({ on: false, serverUrl: current.serverUrl, deviceName: current.deviceName, deviceId: deps.randomId() });
          return setLink({ state: 'refused', reason: REMOVED });
        }
        if (error instanceof SyncRefused) return setLink({ state: 'refused', reason: error.message });
        if (error instanceof SyncOffersLedger) return setLink({ state: 'refused', reason: error.message, otherLedger: true });
        if (error instanceof SyncNeedsSignIn) {
          adoptedNow ||= error.adopted;
          return setLink({ state: 'connecting', reason: error.message });
        }
        throw error;
      }
    } catch (error) {
      if (mine !== attempt) return;
      console.warn('MedLedger: the sync server did not answer', error);
      setLink({ state: 'offline', since: link.state === 'offline' ? link.since : deps.now() });
      retry = setTimeout(() => void connect(mine), RETRY_MS);
    }
  }

  function status(): SyncStatus {
    const base = {
      serverUrl: settings?.serverUrl ?? '',
      deviceName: settings?.deviceName ?? '',
      pendingBlocks: 0,
      pendingFiles: 0,
      devices: [],
    };
    switch (link.state) {
      case 'connected':
        return { ...base, ...link.client.status() };
      case 'offline':
        return { ...base, state: 'offline', since: new Date(link.since).toISOString() };
      case 'refused':
        return { ...base, state: 'refused', reason: link.reason, ...(link.otherLedger ? { otherLedger: true } : {}) };
      case 'connecting':
        return { ...base, state: 'connecting', ...(link.reason ? { reason: link.reason } : {}) };
      default:
        return { ...base, state: link.state };
    }
  }

  function ledgerTaking(user: User, password: string): LedgerTaking {
    return {
      async opens(keys) {
        const wrapped = keys.users[user.id];
        if (!wrapped) return NOT_ON_LEDGER;
        const unlocked = await unlockUserKeys(wrapped as WrappedUserKey, password).catch(() => null);
        return unlocked ? null : WRONG_PASSWORD;
      },
      async signIn() {
        if (!(await signIn(user, password))) await signOut(); // the screens then say why and ask for a sign-in
      },
    };
  }

  const api: Pick<LedgerService, 'connectSync' | 'disconnectSync' | 'syncStatus' | 'removeSyncDevice'> = {
    async connectSync(request) {
      const user = await enter();
      const serverUrl = typeof request?.serverUrl === 'string' ? request.serverUrl.trim() : '';
      const deviceName = typeof request?.deviceName === 'string' ? request.deviceName.trim() : '';
      if (httpOrigin(serverUrl) === null)
        // an address that does not parse would be refused later, less plainly
        fail('ValidationError', 'Enter the server address, starting with ws:// or wss://.');
      if (deviceName === '' || [...deviceName].length > MAX_NAME)
        fail('ValidationError', `Name this device in 1 to ${MAX_NAME} characters.`);
      await stop();
      const same = settings?.serverUrl === serverUrl;
      await save({
        on: true,
        serverUrl,
        deviceName,
        deviceId: settings?.deviceId ?? deps.randomId(),
        ...(same && settings?.deviceUrl ? { deviceUrl: settings.deviceUrl } : {}),
      });
      setLink({ state: 'connecting' });
      adoptedNow = false;
      const password = typeof request?.password === 'string' ? request.password : undefined;
      taking = password === undefined ? undefined : ledgerTaking(user, password);
      try {
        await connect(attempt);
      } finally {
        taking = undefined; // the password serves this one attempt only
      }
      return { ...status(), adopted: adoptedNow || (link.state === 'connected' && link.client.adopted) };
    },

    async disconnectSync() {
      await enter();
      await stop();
      if (settings) await save({ ...settings, on: false });
      changed();
      return status();
    },

    async syncStatus() {
      await enter();
      return status();
    },

    // The server decides (only a device of the same user); the rows it published let this say why before asking.
    async removeSyncDevice(deviceId) {
      await enter();
      const id = typeof deviceId === 'string' ? deviceId : '';
      if (id === '' || id.length > MAX_DEVICE_ID) fail('ValidationError', 'Choose a device to remove.');
      if (id === settings?.deviceId) fail('ValidationError', 'This is this device: use Disconnect to stop its link.');
      if (link.state !== 'connected') fail('ValidationError', 'Connect this device to the sync server to remove another device.');
      const row = link.client.status().devices.find((device) => device.id === id);
      if (!row) fail('NotFoundError', 'The sync server does not list that device.');
      if (!row.mine) fail('AccessDeniedError', 'That device belongs to another user: you can remove only your own devices.');
      const problem = await link.client.removeDevice(id).catch((error: unknown) => (error as Error).message);
      if (problem) fail('ValidationError', `The sync server did not remove the device: ${problem}.`);
      changed();
      return status();
    },
  };

  // The ledger here was replaced (a reset, a restore, another tab's): join again, which takes the server's ledger
  // back into a reset device; the settings a reset cleared are written again.
  async function rejoin(): Promise<void> {
    const current = settings;
    if (!current) return;
    await stop();
    await save(current).catch(() => undefined);
    setLink({ state: 'connecting' });
    await connect(attempt);
  }

  // After a reload: a device that was connected connects again by itself.
  async function resume(): Promise<void> {
    await store.ready();
    const stored = await deps.storage.readMeta(SYNC_KEY);
    if (!isSettings(stored) || settings) return;
    settings = stored;
    if (!stored.on) return;
    setLink({ state: 'connecting' });
    await connect(attempt);
  }

  // A release from the care network: the read goes on the chain only when the server can be asked.
  async function ask(
    unrecorded: string,
    recordRead: () => Promise<string | undefined>,
    request: (client: SyncClient, readBlock: string) => Promise<string | null>,
  ): Promise<string | null> {
    if (link.state !== 'connected') return 'This device is not connected to a sync server.';
    const readBlock = await recordRead();
    if (!readBlock) return unrecorded;
    if (link.state !== 'connected') return 'This device is not connected to a sync server.';
    try {
      return await request(link.client, readBlock);
    } catch (error) {
      return error instanceof Error ? error.message : 'The sync server did not answer.';
    }
  }

  return {
    api,
    resume,
    // The key of a document under an emergency grant, from the server's care network: null when it is stored now,
    // else why not (not connected, or the server's answer).
    release(grantId: string, documentId: string, recordRead: () => Promise<string | undefined>): Promise<string | null> {
      return ask('The read of this file was not recorded.', recordRead, (client, readBlock) =>
        client.release({ grantId, documentId, readBlock }),
      );
    },
    // The summary key of epoch `epochId` of the granted patient under an emergency grant of either level, the same way.
    releaseSummary(grantId: string, epochId: string, recordRead: () => Promise<string | undefined>): Promise<string | null> {
      return ask('The read of these records was not recorded.', recordRead, (client, readBlock) =>
        client.releaseSummary({ grantId, epochId, readBlock }),
      );
    },
    localChanged() {
      // a device waiting for a sign-in proves who it is as soon as someone signs in
      if (link.state === 'connecting' && link.reason) {
        setLink({ state: 'connecting' });
        return void connect(attempt);
      }
      if (link.state !== 'connected') return;
      if (store.loaded() && store.current().blocks[0]?.hash !== link.client.genesis) return void rejoin();
      link.client.localChanged();
    },
    stop,
  };
}
