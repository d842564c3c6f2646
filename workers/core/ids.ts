// Hex helpers for the document keys (64 hex = 32 key bytes).
import { ledgerError } from './errors';

const HEX = '0123456789abcdef';

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i] >>> 4] + HEX[bytes[i] & 15];
  return hex;
}

// Lower- or upper-case hex of even length; anything else is refused so a bad key is never half-read.
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex))
    throw ledgerError('ValidationError', 'Not a hex string of whole bytes');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

// A whole number of 0 or more: a block index or a page offset as it crosses the boundary.
export function isIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}
