import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../workers/core/constants';
import { contentId, decryptDocument, encryptDocument, fileExtension, validateUploadFile } from '../../workers/core/documents';

// An independent CIDv0: base58btc (Bitcoin alphabet) of 0x12 0x20 || sha256(bytes).
function referenceCidV0(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const multihash = Buffer.concat([Buffer.from([0x12, 0x20]), createHash('sha256').update(bytes).digest()]);
  let n = BigInt('0x' + multihash.toString('hex'));
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of multihash) {
    if (byte !== 0) break;
    out = '1' + out;
  }
  return out;
}

function bytesOf(text: string): ArrayBuffer {
  return new TextEncoder().encode(text).buffer as ArrayBuffer;
}

function flipBit(buffer: ArrayBuffer, byteIndex: number): ArrayBuffer {
  const copy = new Uint8Array(buffer.slice(0));
  copy[byteIndex] ^= 0x01;
  return copy.buffer;
}

const plain = new Uint8Array(randomBytes(4096)).buffer;

describe('encryptDocument / decryptDocument', () => {
  it('returns the original bytes after a round trip', async () => {
    const encrypted = await encryptDocument(plain);
    const decrypted = await decryptDocument(encrypted.stored, encrypted.encryptionKey, encrypted.ipfsHash);
    expect(new Uint8Array(decrypted)).toEqual(new Uint8Array(plain));
  });

  it('stores iv (12 bytes) + ciphertext + 16-byte tag, never the plain bytes', async () => {
    const text = 'Patient: Sarah Johnson. Diagnosis: hypertension.';
    const encrypted = await encryptDocument(bytesOf(text));
    expect(encrypted.stored.byteLength).toBe(12 + text.length + 16);
    expect(Buffer.from(encrypted.stored).includes(Buffer.from('Sarah'))).toBe(false);
  });

  it('keeps the key as 64 hex digits and names the stored bytes by their CIDv0', async () => {
    const encrypted = await encryptDocument(plain);
    expect(encrypted.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(encrypted.ipfsHash).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(encrypted.ipfsHash).toBe(referenceCidV0(new Uint8Array(encrypted.stored)));
  });

  it('uses a fresh key and IV for every encryption of the same bytes', async () => {
    const a = await encryptDocument(plain);
    const b = await encryptDocument(plain);
    expect(a.encryptionKey).not.toBe(b.encryptionKey);
    expect(Buffer.from(a.stored.slice(0, 12)).equals(Buffer.from(b.stored.slice(0, 12)))).toBe(false);
    expect(a.ipfsHash).not.toBe(b.ipfsHash);
  });

  it('encrypts and decrypts an empty buffer', async () => {
    const encrypted = await encryptDocument(new ArrayBuffer(0));
    const decrypted = await decryptDocument(encrypted.stored, encrypted.encryptionKey, encrypted.ipfsHash);
    expect(decrypted.byteLength).toBe(0);
  });

  it('fails with IntegrityError, naming the content id, when a stored bit flips', async () => {
    const encrypted = await encryptDocument(plain);
    const tampered = flipBit(encrypted.stored, 100);
    await expect(decryptDocument(tampered, encrypted.encryptionKey, encrypted.ipfsHash)).rejects.toMatchObject({
      name: 'IntegrityError',
      message: `The stored document does not match its content id ${encrypted.ipfsHash}: its bytes were changed`,
    });
  });

  it('fails with IntegrityError when a ciphertext bit flips and the content id was recomputed to match', async () => {
    const encrypted = await encryptDocument(plain);
    for (const byteIndex of [0, 12, 500, encrypted.stored.byteLength - 1]) {
      const tampered = flipBit(encrypted.stored, byteIndex);
      await expect(decryptDocument(tampered, encrypted.encryptionKey, await contentId(tampered))).rejects.toMatchObject({
        name: 'IntegrityError',
        message: 'The document could not be decrypted: the key is wrong or the encrypted bytes were changed',
      });
    }
  });

  it('fails with IntegrityError under a wrong key', async () => {
    const encrypted = await encryptDocument(plain);
    const other = await encryptDocument(plain);
    await expect(decryptDocument(encrypted.stored, other.encryptionKey, encrypted.ipfsHash)).rejects.toMatchObject({
      name: 'IntegrityError',
    });
  });

  it('fails with IntegrityError when the key is not 64 hex digits', async () => {
    const encrypted = await encryptDocument(plain);
    for (const key of ['', encrypted.encryptionKey.slice(2), 'zz' + encrypted.encryptionKey.slice(2)]) {
      await expect(decryptDocument(encrypted.stored, key, encrypted.ipfsHash)).rejects.toMatchObject({
        name: 'IntegrityError',
        message: 'The document key is not 64 hex digits',
      });
    }
  });

  it('fails with IntegrityError on stored bytes too short to hold an IV and a tag', async () => {
    const short = new Uint8Array(20).buffer;
    await expect(decryptDocument(short, 'a'.repeat(64), await contentId(short))).rejects.toMatchObject({
      name: 'IntegrityError',
    });
  });
});

describe('contentId', () => {
  it('matches an independent CIDv0 computed with node:crypto and base58', async () => {
    const bytes = new TextEncoder().encode('MedLedger');
    expect(await contentId(bytes)).toBe(referenceCidV0(bytes));
    expect(await contentId(new Uint8Array(0))).toBe(referenceCidV0(new Uint8Array(0)));
  });

  it('matches the well-known sha2-256 multihash of "hello world"', async () => {
    expect(await contentId(new TextEncoder().encode('hello world'))).toBe('QmaozNR7DZHQK1ZcU9p7QdrshMvXqWK6gpu5rmrkPdT3L4');
  });

  it('is the same for the same bytes, from an ArrayBuffer or a Uint8Array', async () => {
    const bytes = new Uint8Array(randomBytes(1000));
    expect(await contentId(bytes.buffer)).toBe(await contentId(bytes));
    expect(await contentId(bytes.slice())).toBe(await contentId(bytes));
  });

  it('changes when one byte changes', async () => {
    const bytes = new Uint8Array(randomBytes(1000));
    const changed = bytes.slice();
    changed[999] ^= 0x80;
    expect(await contentId(changed)).not.toBe(await contentId(bytes));
  });
});

describe('fileExtension', () => {
  it('returns the lower-case last extension with its dot', () => {
    expect(fileExtension('report.PDF')).toBe('.pdf');
    expect(fileExtension('scan.final.JpEg')).toBe('.jpeg');
    expect(fileExtension('report.pdf.exe')).toBe('.exe');
    expect(fileExtension('README')).toBe('');
    expect(fileExtension('trailing.')).toBe('');
  });
});

describe('validateUploadFile', () => {
  const file = (name: string, size: number, type = '') => ({ name, type, bytes: new ArrayBuffer(size) });

  it('accepts each accepted type, in any letter case', () => {
    for (const name of ['a.pdf', 'b.jpg', 'c.jpeg', 'd.png', 'e.doc', 'f.docx', 'report.PDF']) {
      expect(validateUploadFile(file(name, 10)), name).toBeNull();
    }
  });

  it('accepts a file of exactly 10 MB', () => {
    expect(validateUploadFile(file('big.pdf', MAX_FILE_BYTES, 'application/pdf'))).toBeNull();
  });

  it('rejects a file of 10 MB + 1 byte, naming it', () => {
    expect(validateUploadFile(file('big.pdf', MAX_FILE_BYTES + 1))).toBe('"big.pdf" is larger than 10 MB');
  });

  it('rejects a 2 MB .exe with the file name and the accepted types in the message', () => {
    expect(validateUploadFile(file('scan.exe', 2 * 1024 * 1024))).toBe(
      '"scan.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
    );
  });

  it('rejects a double extension that ends in .exe', () => {
    expect(validateUploadFile(file('report.pdf.exe', 100, 'application/pdf'))).toBe(
      '"report.pdf.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
    );
  });

  it('rejects a name without an extension, and a blank name', () => {
    expect(validateUploadFile(file('report', 100))).toContain('"report" is not an accepted file type');
    expect(validateUploadFile(file('  ', 100))).toBe('A file without a name cannot be uploaded');
  });

  it('rejects an empty file, saying it is empty', () => {
    expect(validateUploadFile(file('blank.pdf', 0, 'application/pdf'))).toBe('"blank.pdf" is empty');
  });

  it('rejects a file whose type disagrees with its extension', () => {
    expect(validateUploadFile(file('report.pdf', 100, 'image/png'))).toBe('"report.pdf" is named .pdf but its type is image/png');
    expect(validateUploadFile(file('photo.png', 100, 'application/x-msdownload'))).not.toBeNull();
  });

  it('accepts an unknown or generic type, and a type with parameters or capitals', () => {
    expect(validateUploadFile(file('report.pdf', 100, ''))).toBeNull();
    expect(validateUploadFile(file('letter.docx', 100, 'application/octet-stream'))).toBeNull();
    expect(validateUploadFile(file('report.pdf', 100, 'Application/PDF; charset=binary'))).toBeNull();
    expect(validateUploadFile(file('photo.JPG', 100, 'image/jpeg'))).toBeNull();
  });
});
