// The care network's emergency key pair (docs/decisions/document-keys-travel-wrapped.md): made at the server's first
// start and kept in its storage folder, readable by the server's user only. Its private half never leaves the file.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createCareNetworkKey, isEncryptionPublicKey, type CareNetworkKey } from '../workers/core/key-wraps';

export async function loadCareNetworkKey(file: string): Promise<CareNetworkKey> {
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<CareNetworkKey>;
    if (!isEncryptionPublicKey(stored.publicKey) || typeof stored.privateKey !== 'string')
      throw new Error(`${file} does not hold a care-network key`);
    return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  }
  const key = await createCareNetworkKey();
  writeFileSync(file, `${JSON.stringify(key)}\n`, { mode: 0o600, flag: 'wx' }); // never over a key another start wrote
  chmodSync(file, 0o600); // whatever the umask
  return key;
}
