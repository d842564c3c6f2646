// The server's limits: each refuses with a reason and never stops the server. SYNC_MAX_BYTES sets the folder's cap.
const MIB = 1024 * 1024;

function numberFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} "${text}" is not a positive whole number`);
  return value;
}

export const LIMITS = {
  folderBytes: numberFromEnv('SYNC_MAX_BYTES', 2048 * MIB), // the storage folder: new data is refused at this size
  bytesPerDevice: numberFromEnv('SYNC_MAX_DEVICE_BYTES', 512 * MIB), // changes a device may send in all
  bytesPerUser: numberFromEnv('SYNC_MAX_USER_BYTES', 1024 * MIB), // changes all of a user's devices may send
  documentsPerDevice: 2_000, // file and chunk documents of one device waiting for the server
  refusedKept: 200, // refusals kept per device in the ledger document; older ones are dropped and counted
  waitingBlocks: 25_000, // blocks of one device waiting for a block they name
  waitingMs: numberFromEnv('SYNC_WAITING_MS', 10 * 60_000), // after this a waiting block is dropped and counted
  devicesPerUser: 20,
  removedKept: 1_000, // removed device ids remembered, all users together; the oldest is forgotten beyond
  newDevicesPerHour: 100, // new device ids the server accepts in an hour, all users together
};
