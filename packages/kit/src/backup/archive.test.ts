import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON, Double, Int32, Long } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveEntry,
  decodeStoredDocument,
  readArchive,
  serializeLine,
  unwrapRawDocument,
  wrapRawDocument,
} from './archive.js';

const dir = mkdtempSync(join(tmpdir(), 'archive-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An archive file of these lines; documents given as objects are stored wrapped, as a backup does. */
function archive(name: string, lines: (Buffer | { doc: object })[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    Buffer.concat(lines.map((l) => (Buffer.isBuffer(l) ? l : wrapRawDocument(BSON.serialize(l.doc))))),
  );
  return path;
}

const head = serializeLine({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, database: 'db' });
const collection = serializeLine({ collection: 'c', options: {}, indexes: [{ key: { _id: 1 }, name: '_id_' }] });

async function entries(path: string): Promise<ArchiveEntry[]> {
  const out: ArchiveEntry[] = [];
  for await (const e of readArchive(path, 'db')) out.push(e);
  return out;
}

describe('a backup archive', () => {
  it('gives back each document with its BSON types, even one shaped like a header or an end line', async () => {
    const doc = { _id: 1, small: new Int32(3), whole: new Double(2), big: Long.fromString('9007199254740993') };
    const path = archive('ok', [
      head,
      collection,
      { doc },
      { doc: { collection: 'not a header', end: 'c', count: 0, complete: true } },
      serializeLine({ end: 'c', count: 2 }),
      serializeLine({ complete: true, collections: 1 }),
    ]);
    const read = await entries(path);
    expect(read.map((e) => e.kind)).toEqual(['collection', 'document', 'document', 'end']);
    const first = read[1];
    if (first?.kind !== 'document') throw new Error('no document');
    // Written back from what restore decodes, the bytes are the stored ones.
    expect(Buffer.from(BSON.serialize(decodeStoredDocument(first.raw)))).toEqual(Buffer.from(BSON.serialize(doc)));
  });

  it('wraps and unwraps raw documents, and tells them from other lines', () => {
    const raw = Buffer.from(BSON.serialize({ a: 'b' }));
    expect(unwrapRawDocument(wrapRawDocument(raw))).toEqual(raw);
    expect(unwrapRawDocument(serializeLine({ d: 1 }))).toBeUndefined();
  });

  it('refuses an archive cut short, a wrong count, or another database', async () => {
    const whole = [head, collection, { doc: { _id: 1 } }, serializeLine({ end: 'c', count: 1 })];
    await expect(entries(archive('no-end', whole))).rejects.toThrow(/did not finish/);
    const cut = Buffer.concat([head, collection, wrapRawDocument(BSON.serialize({ _id: 1 }))]);
    await expect(entries(archive('cut', [cut.subarray(0, cut.length - 3)]))).rejects.toThrow(/incomplete/);
    const miscounted = [head, collection, { doc: { _id: 1 } }, serializeLine({ end: 'c', count: 2 })];
    await expect(entries(archive('miscounted', miscounted))).rejects.toThrow(/says 2 documents but holds 1/);
    await expect(
      (async () => {
        for await (const _ of readArchive(archive('other', [head]), 'elsewhere'));
      })(),
    ).rejects.toThrow(/holds database db, not elsewhere/);
  });
});
