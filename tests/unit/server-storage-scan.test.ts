// The scan that checks the sync server stored nothing medical in clear (tests/e2e/support/server-storage-scan.ts): it
// must find a secret in every form a careless server could store it, and report nothing where there is none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Automerge from '@automerge/automerge';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeBlock } from '../../workers/core/sync-protocol';
import type { Block } from '../../workers/core/types';
import { scanServerStorage } from '../e2e/support/server-storage-scan';

const SECRET = 'Chemotherapy cycle 3';
const folders: string[] = [];

afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function folderWith(files: Record<string, Uint8Array | string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'medledger-scan-test-'));
  folders.push(folder);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  return folder;
}

// `secret`'s bytes after `offset` other bytes, base64-encoded: the secret starts mid-group for offsets 1 and 2.
function base64At(secret: string, offset: number): string {
  return Buffer.concat([Buffer.from('xyz'.slice(0, offset)), Buffer.from(secret)]).toString('base64');
}

// A block as the server keeps it: its record's title in clear (a ledger written before sealing).
function blockTitled(title: string): Block {
  const record = { id: 'r1', type: 'test_report', patientId: 'patient-1', doctorId: '', title, description: '', timestamp: '' };
  return { hash: 'ab'.repeat(32), data: record } as unknown as Block;
}

describe('scanning the sync server storage for secrets', () => {
  it('finds a secret stored in UTF-8, in base64 at each of the three alignments and in hex, naming the file', () => {
    const folder = folderWith({
      'plain.txt': `title: ${SECRET}`,
      'b64-0.txt': base64At(SECRET, 0),
      'b64-1.txt': base64At(SECRET, 1),
      'b64-2.txt': base64At(SECRET, 2),
      'nested/hex.bin': Buffer.from(`<${Buffer.from(SECRET).toString('hex')}>`),
    });
    const { files, found } = scanServerStorage(folder, [SECRET, 'never stored']);
    expect(files).toBe(5);
    const where = (encoding: string) =>
      found
        .filter((finding) => finding.encoding === encoding)
        .map((finding) => finding.where)
        .sort();
    expect(where('utf-8')).toEqual(['plain.txt']);
    expect(where('base64')).toEqual(['b64-0.txt', 'b64-1.txt', 'b64-2.txt']);
    expect(where('hex')).toEqual([join('nested', 'hex.bin')]);
    expect(found.every((finding) => finding.secret === SECRET)).toBe(true);
  });

  it('reports nothing in a folder that holds no secret, though it holds near neighbours in each encoding', () => {
    const folder = folderWith({
      'a.txt': 'Chemotherapy cycle 2',
      'b.bin': [0, 1, 2].map((offset) => base64At('Chemotherapy, cycle 3', offset)).join('\n'),
      'c.bin': Buffer.from('Chemotherapy cycle 2').toString('hex'),
    });
    expect(scanServerStorage(folder, [SECRET]).found).toEqual([]);
  });

  it('finds a key stored as its raw bytes when the secret is its hex', () => {
    const key = 'a1'.repeat(32);
    const folder = folderWith({ 'key.bin': Buffer.concat([Buffer.from([7, 7]), Buffer.from(key, 'hex')]) });
    expect(scanServerStorage(folder, [key]).found).toEqual([{ secret: key, encoding: 'key bytes', where: 'key.bin' }]);
  });

  it('finds a secret inside an encoded block of a stored Automerge document, compressed on disk, and in its history once deleted', () => {
    // many blocks: Automerge deflates the columns of a large document, so the raw bytes do not show the title
    const blocks = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`b${i}`, encodeBlock(blockTitled(i === 150 ? SECRET : `Routine check ${i}`))]),
    );
    let doc = Automerge.from<{ kind: string; blocks: Record<string, Uint8Array> }>({ kind: 'medledger-ledger', blocks });
    const current = folderWith({ 'automerge/2x/yzDocument/snapshot/0001': Automerge.save(doc) });
    const { documents, found } = scanServerStorage(current, [SECRET]);
    expect(documents).toBe(1);
    const name = `document ${join('automerge', '2x', 'yzDocument')}`;
    expect(found.map((finding) => finding.where)).toContain(`${name}.blocks.b150 (JSON).data.title`);
    expect(found.filter((finding) => finding.where.startsWith('automerge'))).toEqual([]); // the disk bytes alone hide it

    doc = Automerge.change(doc, (d) => void delete d.blocks.b150);
    const deleted = folderWith({ 'automerge/2x/yzDocument/snapshot/0002': Automerge.save(doc) });
    expect(scanServerStorage(deleted, [SECRET]).found.map((finding) => finding.where)).toEqual([
      `${name} history`,
      `${name} history (JSON).data.title`,
    ]);
  });
});
