// The sync types of the one API (workers/api.ts): this device's link to a sync server.
export type SyncState = 'off' | 'connecting' | 'in-step' | 'syncing' | 'offline' | 'refused';

export interface SyncDevice {
  id: string; // the device's id on the server
  name: string;
  tip: string; // hash of the device's newest block
  height: number;
  seenAt: string; // ISO 8601
  thisDevice: boolean;
  mine: boolean; // proved by the same user as this device: the user may remove it (removeSyncDevice)
}

export interface SyncStatus {
  state: SyncState;
  serverUrl: string; // '' when never connected
  deviceName: string;
  since?: string; // ISO 8601: when it went offline
  pendingBlocks: number; // blocks still to travel, either way
  pendingFiles: number; // files written here the server has not taken yet
  reason?: string; // why it was refused, or what a connecting device waits for
  otherLedger?: boolean; // refused because the server holds another ledger this device may take with the user's password
  notice?: string; // what the server or this device's clock says is wrong while connected (a clock off, a limit reached)
  devices: SyncDevice[]; // the devices the server knows, this one first
  serverHeight?: number; // blocks the server verified
  serverTip?: string; // the server's newest block, known while it holds exactly this device's blocks
}

// connectSync's answer: the state, and whether this device took the server's ledger (the user stays signed in: their
// password opened their key on it).
export interface SyncConnection extends SyncStatus {
  adopted: boolean;
}

export interface SyncRequest {
  serverUrl: string; // ws:// or wss://
  deviceName: string;
  password?: string; // given only once the user agreed to take the server's ledger (otherLedger)
}

// A file another device wrote whose bytes have not reached this device yet: how far its encrypted bytes came.
export interface FileArrival {
  receivedBytes: number;
  totalBytes: number;
}
