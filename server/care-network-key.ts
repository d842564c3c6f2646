// The care network's emergency key pair (docs/decisions/document-keys-travel-wrapped.md): made at the server's first
// start and kept in its storage folder, readable by the server's user only. Its private half never leaves the file.
import { existsSync } from 'node:fs';
import { createCareNetworkKey, isEncryptionPublicKey, type CareNetworkKey } from '../workers/core/key-wraps';
import { readJsonFile, writeWhole } from './whole-file';

const REMEDY =
  'Put back a copy of this file if you have one. Otherwise delete it and start the server again: it makes a new key, ' +
  'and the keys wrapped to the old one can no longer be released to doctors (patients share their files again).';

export async function loadCareNetworkKey(file: string): Promise<CareNetworkKey> {
  if (existsSync(file)) {
    const stored = readJsonFile(file, REMEDY) as Partial<CareNetworkKey> | null;
    if (!isEncryptionPublicKey(stored?.publicKey) || typeof stored.privateKey !== 'string')
      throw new Error(`${file} is damaged: it holds no care-network key. ${REMEDY}`);
    return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  }
  const key = await createCareNetworkKey();
  writeWhole(file, `${JSON.stringify(key)}\n`); // mode 0600: readable by the server's user only
  return key;
}
