// Looks for secrets (record text, file names, keys) in what the sync server stored (docs/decisions/nothing-medical-in-clear.md):
// every file's raw bytes, and every Automerge document in it loaded, its current values and every value its history
// ever set, with the byte fields the server's documents hold (blocks, wraps, keys: UTF-8 JSON) decoded.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import * as Automerge from '@automerge/automerge';

export type SecretEncoding = 'utf-8' | 'base64' | 'hex' | 'key bytes';

export interface SecretFinding {
  secret: string;
  encoding: SecretEncoding;
  where: string; // a file (relative to the folder), or a document's field path, or a document's history
}

export interface StorageScan {
  files: number;
  documents: number; // Automerge documents loaded
  found: SecretFinding[];
}

interface Needle {
  secret: string;
  encoding: SecretEncoding;
  text: string; // as it appears in text (the base64 and hex forms are ASCII)
  bytes: Buffer; // as it appears in bytes
}

const CHUNK_TYPES = new Set(['snapshot', 'incremental']); // what @automerge/automerge-repo-storage-nodefs keeps per document
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

// The secret's base64 wherever it starts in the encoded stream: after 0, 1 or 2 other bytes, only the characters
// that depend on the secret's bytes alone (so a text differing only in its last 2 or 4 bits is reported too);
// standard and URL-safe alphabets.
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = [0, 2, 3][offset];
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : encoded.length - 1;
    const form = encoded.slice(start, end);
    if (form.length >= 4) forms.push(form, form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(forms)];
}

function needlesOf(secret: string): Needle[] {
  const utf8 = Buffer.from(secret, 'utf8');
  const forms: [SecretEncoding, string][] = [
    ['utf-8', secret],
    ...base64Forms(utf8).map((form): [SecretEncoding, string] => ['base64', form]),
    ['hex', utf8.toString('hex')],
    ['hex', utf8.toString('hex').toUpperCase()],
  ];
  const needles = forms.map(([encoding, text]) => ({ secret, encoding, text, bytes: Buffer.from(text, 'utf8') }));
  // a key written as hex may also be stored as its raw bytes, or their base64
  if (HEX.test(secret) && secret.length >= 32) {
    const raw = Buffer.from(secret, 'hex');
    needles.push({ secret, encoding: 'key bytes', text: '', bytes: raw });
    for (const form of base64Forms(raw))
      needles.push({ secret, encoding: 'base64', text: form, bytes: Buffer.from(form, 'utf8') });
  }
  return needles;
}

// Every file's bytes, read once: Automerge-repo compacts a document's chunks while the server runs, so a file listed
// may be gone when it is read (its bytes are in a newer file, also listed or written after the listing).
function filesUnder(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const visit = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) visit(path);
      else {
        try {
          files.set(path, readFileSync(path));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
  };
  visit(dir);
  return files;
}

function isByteArray(value: unknown): value is Uint8Array | number[] {
  return (
    value instanceof Uint8Array ||
    (Array.isArray(value) &&
      value.length > 0 &&
      value.every((item) => Number.isInteger(item) && (item as number) >= 0 && (item as number) < 256))
  );
}

// The document chunks of the storage folder, grouped by document: nodefs keeps `<id[0..2]>/<id[2..]>/<type>/<hash>`.
function documentChunks(files: ReadonlyMap<string, Buffer>): Map<string, string[]> {
  const documents = new Map<string, string[]>();
  for (const file of files.keys()) {
    if (!CHUNK_TYPES.has(basename(dirname(file)))) continue;
    const document = dirname(dirname(file));
    documents.set(document, [...(documents.get(document) ?? []), file]);
  }
  return documents;
}

// The document its chunks hold, or null when they are not an Automerge document's.
function loadDocument(files: ReadonlyMap<string, Buffer>, chunks: readonly string[]): Automerge.Doc<unknown> | null {
  const ordered = [...chunks].sort(
    (a, b) => Number(basename(dirname(b)) === 'snapshot') - Number(basename(dirname(a)) === 'snapshot'),
  );
  try {
    return Automerge.loadIncremental(Automerge.init<unknown>(), Buffer.concat(ordered.map((file) => files.get(file) as Buffer)));
  } catch {
    return null;
  }
}

export function scanServerStorage(dir: string, secrets: readonly string[]): StorageScan {
  const needles = secrets.flatMap(needlesOf);
  const found = new Map<string, SecretFinding>();
  const report = (needle: Needle, where: string) =>
    found.set(`${needle.secret}\u0000${needle.encoding}\u0000${where}`, {
      secret: needle.secret,
      encoding: needle.encoding,
      where,
    });

  // A text: each needle as text; a JSON text (a block, a wrap, the keys) also by its parsed values, so an escaped
  // character in the secret does not hide it.
  const scanText = (text: string, where: string) => {
    for (const needle of needles) if (needle.text !== '' && text.includes(needle.text)) report(needle, where);
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[') return;
    try {
      scanValue(JSON.parse(text) as unknown, `${where} (JSON)`);
    } catch {
      // not JSON after all: searched as text above
    }
  };
  const scanBytes = (bytes: Uint8Array, where: string) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const needle of needles) if (buffer.includes(needle.bytes)) report(needle, where);
    scanText(new TextDecoder('utf-8').decode(bytes), where);
  };
  const scanValue = (value: unknown, where: string): void => {
    if (typeof value === 'string') return scanText(value, where);
    if (isByteArray(value)) return scanBytes(value instanceof Uint8Array ? value : Uint8Array.from(value), where);
    if (value instanceof Automerge.ImmutableString) return scanText(value.toString(), where);
    if (Array.isArray(value)) return value.forEach((item, index) => scanValue(item, `${where}[${index}]`));
    if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) {
        scanText(key, `${where} (a key)`);
        scanValue(item, `${where}.${key}`);
      }
  };

  const files = filesUnder(dir);
  for (const [file, bytes] of files) scanBytes(bytes, relative(dir, file));

  let documents = 0;
  for (const [document, chunks] of documentChunks(files)) {
    const doc = loadDocument(files, chunks);
    if (!doc) continue;
    documents++;
    const name = `document ${relative(dir, document)}`;
    scanValue(Automerge.toJS(doc), name);
    // what the history set, values deleted or replaced since included
    for (const change of Automerge.getAllChanges(doc))
      for (const op of Automerge.decodeChange(change).ops) if (op.value !== undefined) scanValue(op.value, `${name} history`);
  }
  return { files: files.size, documents, found: [...found.values()] };
}
