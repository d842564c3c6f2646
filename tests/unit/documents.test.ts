import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../workers/core/constants';
import { contentId, decryptDocument, encryptDocument, fileExtension, validateUploadFile } from '../../workers/core/documents';

// Kubo's deterministic test bytes (test/cli/testutils/random_deterministic.go): the ChaCha20 keystream under
// key sha256(seed) and a zero nonce; node's 16-byte chacha20 iv is the 32-bit block counter (0) then the nonce.
function kuboDeterministicBytes(size: number, seed: string): Uint8Array {
  const key = createHash('sha256').update(seed).digest();
  return new Uint8Array(createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(size)));
}

const CHUNK_BYTES = 262_144;

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
    expect(encrypted.ipfsHash).toBe(await contentId(encrypted.stored));
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

  it('fails with IntegrityError, naming the content id, when a bit flips in a later chunk of a large document', async () => {
    const encrypted = await encryptDocument(new Uint8Array(randomBytes(2 * CHUNK_BYTES + 1000)).buffer);
    for (const byteIndex of [CHUNK_BYTES + 7, encrypted.stored.byteLength - 1]) {
      const tampered = flipBit(encrypted.stored, byteIndex);
      await expect(decryptDocument(tampered, encrypted.encryptionKey, encrypted.ipfsHash)).rejects.toMatchObject({
        name: 'IntegrityError',
        message: `The stored document does not match its content id ${encrypted.ipfsHash}: its bytes were changed`,
      });
    }
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
  it('matches `ipfs add` on small files', async () => {
    const text = (value: string) => new TextEncoder().encode(value);
    // kubo test/cli/cid_profiles_test.go, SmallFileCID of the default profile (unixfs-v0-2015)
    expect(await contentId(text('hello world'))).toBe('Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD');
    // kubo test/sharness/t0040-add-and-cat.sh: `echo "Hello Worlds!" >hello.txt && ipfs add hello.txt`
    expect(await contentId(text('Hello Worlds!\n'))).toBe('QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH');
    // kubo test/sharness/t0040-add-and-cat.sh, "zero length file has correct hash"
    expect(await contentId(new Uint8Array(0))).toBe('QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH');
  });

  it('matches `ipfs add` on a file of exactly one 256 KiB chunk and on one a byte longer', async () => {
    // kubo test/cli/cid_profiles_test.go, FileAtChunkSizeCID and FileOverChunkSizeCID (seed "chunk-v0-seed")
    expect(await contentId(kuboDeterministicBytes(CHUNK_BYTES, 'chunk-v0-seed'))).toBe(
      'QmWmRj3dFDZdb6ABvbmKhEL6TmPbAfBZ1t5BxsEyJrcZhE',
    );
    expect(await contentId(kuboDeterministicBytes(CHUNK_BYTES + 1, 'chunk-v0-seed'))).toBe(
      'QmYyLxtzZyW22zpoVAtKANLRHpDjZtNeDjQdJrcQNWoRkJ',
    );
  });

  it('matches `ipfs add` on a file of 174 chunks and a byte, which needs a second tree level', async () => {
    // kubo test/cli/cid_profiles_test.go, FileOverMaxLinksCID (174 * 256 KiB + 1 bytes, seed "v0-seed")
    expect(await contentId(kuboDeterministicBytes(174 * CHUNK_BYTES + 1, 'v0-seed'))).toBe(
      'QmV81WL765sC8DXsRhE5fJv2rwhS4icHRaf3J9Zk5FdRnW',
    );
  });

  it('is the same for the same bytes, from an ArrayBuffer, a Uint8Array or a view into a larger buffer', async () => {
    const bytes = new Uint8Array(randomBytes(1000));
    expect(await contentId(bytes.buffer)).toBe(await contentId(bytes));
    expect(await contentId(bytes.slice())).toBe(await contentId(bytes));
    const padded = new Uint8Array(1010);
    padded.set(bytes, 3);
    expect(await contentId(padded.subarray(3, 1003))).toBe(await contentId(bytes));
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
