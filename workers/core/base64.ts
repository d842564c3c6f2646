// Base64 of bytes (FHIR attachments, the backup's salt and sealed payload), in slices so a 10 MB file never
// builds one argument list or one string per byte.
const SLICE = 0x8000; // bytes per String.fromCharCode call: below every engine's argument limit

export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += SLICE) {
    parts.push(String.fromCharCode(...bytes.subarray(offset, offset + SLICE)));
  }
  return btoa(parts.join(''));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/; // one character class: no backtracking over a 14 MB string

// Standard base64 with padding (line breaks and spaces allowed between characters); null when it does not decode.
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  const compact = text.replace(/[\r\n\t ]/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
