// Hex helpers shared by the chain (hashes) and the document store (keys).

const HEX = '0123456789abcdef';

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i] >>> 4] + HEX[bytes[i] & 15];
  return hex;
}

// Lower- or upper-case hex of even length; anything else is refused so a bad key is never half-read.
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new RangeError('not a hex string of whole bytes');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function isHex(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && /^[0-9a-f]*$/.test(value);
}

// `byteCount` random bytes from the given WebCrypto, as lower-case hex.
export function randomHex(byteCount: number, cryptoImpl: Pick<Crypto, 'getRandomValues'> = globalThis.crypto): string {
  return bytesToHex(cryptoImpl.getRandomValues(new Uint8Array(byteCount)));
}
