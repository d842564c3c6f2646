import { hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hkdfSha256 } from '../../workers/core/hkdf';

describe('HKDF-SHA256', () => {
  it('derives the bytes node:crypto derives, for an empty salt and 32 bytes out', () => {
    for (let i = 0; i < 200; i++) {
      const key = randomBytes(i % 3 === 0 ? 32 : 1 + (i % 64));
      const info = randomBytes(i % 80);
      expect(Buffer.from(hkdfSha256(key, info)).toString('hex')).toBe(
        Buffer.from(hkdfSync('sha256', key, new Uint8Array(0), info, 32)).toString('hex'),
      );
    }
  });

  it('derives the key WebCrypto derives: what one seals, the other opens', async () => {
    const key = randomBytes(32);
    const info = new TextEncoder().encode('medledger-sealed|file-fields');
    const material = await crypto.subtle.importKey('raw', key, 'HKDF', false, ['deriveKey']);
    const theirs = await crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt'],
    );
    const ours = await crypto.subtle.importKey('raw', hkdfSha256(key, info), { name: 'AES-GCM' }, false, ['decrypt']);
    const iv = new Uint8Array(12);
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, theirs, new TextEncoder().encode('scan.pdf'));
    expect(new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, ours, sealed))).toBe('scan.pdf');
  });
});
