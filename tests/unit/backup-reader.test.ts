import { CarWriter } from '@ipld/car';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { importBytes } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { assembleDocument, headerBlock, readBackupFile, sealContents } from '../../workers/core/backup-file';
import { ipfsAddDefaults } from '../../workers/core/ipfs-add';
import { errorOf } from '../support/ledger-fixtures';

// A CAR's block map that counts every block read from it, so a test can bound the work a reader did.
class CountingBlocks extends Map<string, Uint8Array> {
  gets = 0;
  override get(key: string): Uint8Array | undefined {
    this.gets += 1;
    return super.get(key);
  }
}

async function put(blocks: Map<string, Uint8Array>, node: dagPb.PBNode): Promise<{ cid: CID; size: number }> {
  const bytes = dagPb.encode(dagPb.prepare(node));
  const cid = CID.createV0(await sha256.digest(bytes));
  blocks.set(cid.toString(), bytes);
  return { cid, size: bytes.length };
}

// Six dag-pb blocks, each linking 20 times to the next: 20^5 leaves to a reader that follows every link.
async function linkBomb(claimedBytesPerLink: (depth: number) => number) {
  const blocks = new CountingBlocks();
  let next = await put(blocks, { Data: new UnixFS({ type: 'file', data: new Uint8Array([0x61]) }).marshal(), Links: [] });
  for (let depth = 4; depth >= 0; depth -= 1) {
    const unixfs = new UnixFS({ type: 'file' });
    for (let i = 0; i < 20; i += 1) unixfs.addBlockSize(BigInt(claimedBytesPerLink(depth)));
    const links = Array.from({ length: 20 }, () => ({ Hash: next.cid, Name: '', Tsize: next.size }));
    next = await put(blocks, { Data: unixfs.marshal(), Links: links });
  }
  expect(blocks.size).toBe(6);
  blocks.gets = 0;
  return { blocks, root: next.cid.toString() };
}

async function imported(bytes: Uint8Array) {
  const blocks = new CountingBlocks();
  const { cid } = await importBytes(
    bytes,
    { put: (key, block) => (blocks.set(key.toString(), block as Uint8Array), key) },
    ipfsAddDefaults(),
  );
  blocks.gets = 0;
  return { blocks, root: cid.toString() };
}

// The bomb as a backup file carries it (a header root, then the document's root), read back as a restore reads it.
async function asBackupFile({ blocks, root }: { blocks: Map<string, Uint8Array>; root: string }) {
  const contents = { scope: 'browser' as const, blocks: [], keys: {}, signingKeys: {} as never };
  const header = await headerBlock(await sealContents(contents, 'password', 1, '2025-01-01T00:00:00.000Z'));
  const { writer, out } = CarWriter.create([header.cid, CID.parse(root)]);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const collecting = (async () => {
    for await (const part of out) parts.push(part.slice());
  })();
  await writer.put(header);
  for (const [cid, bytes] of blocks) await writer.put({ cid: CID.parse(cid), bytes });
  await writer.close();
  await collecting;
  const read = await readBackupFile(new Uint8Array(await new Blob(parts).arrayBuffer()));
  expect(read.documentIds).toEqual([root]);
  return { blocks: new CountingBlocks(read.blocks), root };
}

function patterned(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 7 + (i >> 18)) & 0xff); // no two 256 KiB chunks alike
}

// toEqual compares megabytes element by element for seconds
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;
const noYield = () => Promise.resolve();
const TOO_MUCH = 'The backup holds more for "scan.pdf" than the file its chain records. Nothing was replaced.';

describe('reading a document out of a backup', () => {
  it('refuses a six-block CAR whose nodes link 20 times each to the next, after reading a handful of blocks', async () => {
    const { blocks, root } = await asBackupFile(await linkBomb((depth) => 20 ** (4 - depth)));
    expect(blocks.size).toBe(7); // the header and the six
    const error = await errorOf(
      assembleDocument(root, blocks, { fileName: 'scan.pdf', maxBytes: 10_485_788, nextTask: noYield }),
    );
    expect(error).toEqual({ name: 'ValidationError', message: TOO_MUCH });
    expect(blocks.gets).toBeLessThanOrEqual(42); // the blocks a 10 MB file takes; a full walk is 3.4 million
  });

  it('refuses the same CAR when its nodes claim one byte per link, within the blocks the recorded size allows', async () => {
    const { blocks, root } = await linkBomb(() => 1);
    const error = await errorOf(assembleDocument(root, blocks, { fileName: 'scan.pdf', maxBytes: 128, nextTask: noYield }));
    expect(error).toEqual({ name: 'ValidationError', message: TOO_MUCH });
    await new Promise((resolve) => setTimeout(resolve, 0)); // nothing reads on after the refusal
    expect(blocks.gets).toBeLessThanOrEqual(2);
  });

  it('refuses a document whose DAG holds more bytes than its chain records', async () => {
    const { blocks, root } = await imported(patterned(1_000));
    const error = await errorOf(assembleDocument(root, blocks, { fileName: 'scan.pdf', maxBytes: 999, nextTask: noYield }));
    expect(error).toEqual({ name: 'ValidationError', message: TOO_MUCH });
  });

  it('refuses a DAG whose root claims two bytes while its leaves hold more than the chain records', async () => {
    const blocks = new CountingBlocks();
    const leaf = await put(blocks, { Data: new UnixFS({ type: 'file', data: patterned(200_000) }).marshal(), Links: [] });
    const root = new UnixFS({ type: 'file', blockSizes: [1n, 1n] });
    const links = [leaf, leaf].map(({ cid, size }) => ({ Hash: cid, Name: '', Tsize: size }));
    const { cid } = await put(blocks, { Data: root.marshal(), Links: links });
    const error = await errorOf(
      assembleDocument(cid.toString(), blocks, { fileName: 'scan.pdf', maxBytes: 300_000, nextTask: noYield }),
    );
    expect(error).toEqual({ name: 'ValidationError', message: TOO_MUCH });
  });

  it('gives back the bytes of a three-block document, reading each block once', async () => {
    const bytes = patterned(300_000);
    const { blocks, root } = await imported(bytes);
    expect(blocks.size).toBe(3);
    expect(
      same(await assembleDocument(root, blocks, { fileName: 'scan.pdf', maxBytes: 300_000, nextTask: noYield }), bytes),
    ).toBe(true);
    expect(blocks.gets).toBe(3);
  });

  it('yields a macrotask while it reads a long document, so the worker keeps answering', async () => {
    const bytes = patterned(20 * 262_144);
    const { blocks, root } = await imported(bytes);
    let yields = 0;
    const nextTask = () => ((yields += 1), new Promise<void>((resolve) => setTimeout(resolve, 0)));
    expect(same(await assembleDocument(root, blocks, { fileName: 'scan.pdf', maxBytes: bytes.length, nextTask }), bytes)).toBe(
      true,
    );
    expect(yields).toBeGreaterThanOrEqual(2); // 21 blocks
  });

  it('names the file when one of its blocks is missing', async () => {
    const { blocks, root } = await imported(patterned(300_000));
    blocks.delete([...blocks.keys()].find((key) => key !== root)!);
    expect(await errorOf(assembleDocument(root, blocks, { fileName: 'scan.pdf', maxBytes: 300_000, nextTask: noYield }))).toEqual(
      {
        name: 'ValidationError',
        message: 'The backup file is damaged or incomplete: the blocks of "scan.pdf" cannot be read. Nothing was replaced.',
      },
    );
  });
});
