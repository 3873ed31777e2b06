import { createReadStream } from 'node:fs';
import { BSON, type Document } from 'mongodb';

/**
 * One service database in one file (`<database>.archive`): a stream of BSON documents, read and
 * written without the database tools (mongodump and mongorestore are not available here).
 *
 *   { format: 'homereport-backup', version: 1, database }
 *   for each collection:
 *     { collection, options, indexes }          its index definitions as listIndexes gives them
 *     { d: <document> }  ...                    each document as the server stored it (raw BSON)
 *     { end: <collection>, count }              how many documents came before it
 *   { complete: true, collections }             written last: a file cut short has no such line
 *
 * Each document is wrapped (`d`) so that no stored document can be taken for a header or an end
 * line, whatever its fields; the wrapper costs 8 bytes and is built around the raw bytes, so a
 * document is never decoded on the way out and keeps its BSON types (an int32 stays one).
 */
export const ARCHIVE_FORMAT = 'homereport-backup';
export const ARCHIVE_VERSION = 1;

export interface CollectionHeader {
  collection: string;
  options: Document;
  indexes: Document[];
}

/** The bytes of `{ d: <raw> }`: length, type 3 (embedded document), the key "d", the document, end. */
export function wrapRawDocument(raw: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(raw.length + 8);
  out.writeInt32LE(raw.length + 8, 0);
  out[4] = 0x03;
  out[5] = 0x64; // "d"
  out[6] = 0x00;
  out.set(raw, 7);
  out[raw.length + 7] = 0x00;
  return out;
}

/** The document inside a `{ d: ... }` wrapper, or undefined when `bytes` is another line. */
export function unwrapRawDocument(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 13 || bytes[4] !== 0x03 || bytes[5] !== 0x64 || bytes[6] !== 0x00) return undefined;
  const inner = bytes.readInt32LE(7);
  if (inner !== bytes.length - 8) return undefined;
  return bytes.subarray(7, bytes.length - 1);
}

export const serializeLine = (doc: Document): Buffer => Buffer.from(BSON.serialize(doc));

/**
 * A stored document as the driver should write it back: numbers stay in their BSON types
 * (Int32, Double, Long) instead of JavaScript numbers, binary stays binary, a regular expression
 * stays a BSON one.
 */
export const decodeStoredDocument = (raw: Buffer): Document =>
  BSON.deserialize(raw, { promoteValues: false, promoteBuffers: false, bsonRegExp: true });

/** The BSON documents of a file, one Buffer each, in order; throws on a truncated last one. */
export async function* readBsonStream(path: string): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
    let at = 0;
    while (pending.length - at >= 4) {
      const size = pending.readInt32LE(at);
      if (size < 5) throw new Error(`${path}: a document of ${size} bytes at offset ${at}: not a backup archive`);
      if (pending.length - at < size) break;
      yield pending.subarray(at, at + size);
      at += size;
    }
    pending = pending.subarray(at);
  }
  if (pending.length > 0) throw new Error(`${path} ends in the middle of a document: the file is incomplete`);
}

export type ArchiveEntry =
  | { kind: 'collection'; header: CollectionHeader }
  | { kind: 'document'; raw: Buffer }
  | { kind: 'end'; collection: string; count: number };

/**
 * The entries of an archive, checked as they come: the first line must name the format and the
 * database, each collection's end line must count what came before it, and the last line must
 * say the archive is complete (a copy cut short is refused, not half restored).
 */
export async function* readArchive(path: string, database: string): AsyncGenerator<ArchiveEntry> {
  let first = true;
  let current: string | undefined;
  let count = 0;
  let complete = false;
  for await (const bytes of readBsonStream(path)) {
    if (complete) throw new Error(`${path}: data after the end of the archive`);
    if (first) {
      const head = BSON.deserialize(bytes);
      if (head.format !== ARCHIVE_FORMAT || head.version !== ARCHIVE_VERSION)
        throw new Error(`${path} is not a ${ARCHIVE_FORMAT} archive of version ${ARCHIVE_VERSION}`);
      if (head.database !== database) throw new Error(`${path} holds database ${head.database}, not ${database}`);
      first = false;
      continue;
    }
    const raw = current === undefined ? undefined : unwrapRawDocument(bytes);
    if (raw) {
      count += 1;
      yield { kind: 'document', raw };
      continue;
    }
    const line = BSON.deserialize(bytes);
    if (typeof line.collection === 'string' && current === undefined) {
      current = line.collection;
      count = 0;
      yield { kind: 'collection', header: line as CollectionHeader };
    } else if (typeof line.end === 'string' && line.end === current) {
      if (line.count !== count)
        throw new Error(`${path}: collection ${current} says ${line.count} documents but holds ${count}`);
      yield { kind: 'end', collection: current, count };
      current = undefined;
    } else if (line.complete === true && current === undefined) {
      complete = true;
    } else {
      throw new Error(`${path}: unexpected line ${JSON.stringify(Object.keys(line))} in the archive`);
    }
  }
  if (!complete) throw new Error(`${path} has no end line: the backup that wrote it did not finish`);
}
