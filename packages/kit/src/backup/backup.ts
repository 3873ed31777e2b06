import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Client as S3Client } from 'minio';
import type { Document, MongoClient } from 'mongodb';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type CollectionHeader, serializeLine, wrapRawDocument } from './archive.js';
import { type BackupManifest, type FileEntry, MANIFEST, objectPath, storedMetadata } from './manifest.js';

export interface BackupTargets {
  mongo: MongoClient;
  /** The services' databases, each written to `<name>.archive`. */
  databases: string[];
  /** The report files' bucket, when there is object storage to copy. */
  s3?: { client: S3Client; bucket: string };
  /** Where MONGO_URL points, credentials removed, for the manifest. */
  mongoUrl: string;
  log: (line: string) => void;
}

/** A file written while hashing it, waiting for the disk whenever the stream asks to. */
class HashedFile {
  private readonly out;
  private readonly hash = createHash('sha256');
  bytes = 0;
  constructor(path: string) {
    this.out = createWriteStream(path, { flags: 'wx' });
  }
  async write(bytes: Buffer): Promise<void> {
    this.hash.update(bytes);
    this.bytes += bytes.length;
    if (!this.out.write(bytes)) await once(this.out, 'drain');
  }
  async close(): Promise<string> {
    this.out.end();
    await once(this.out, 'finish');
    return this.hash.digest('hex');
  }
}

/** The sha256 of a file, read as a stream. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The index definitions to write back: what listIndexes gives, without the server's bookkeeping. */
function indexDefinition(index: Document): Document {
  const { v: _v, ns: _ns, ...definition } = index;
  return definition;
}

async function backupDatabase(targets: BackupTargets, outDir: string, database: string) {
  const db = targets.mongo.db(database);
  const collections = (await db.listCollections({}, { nameOnly: false }).toArray())
    .filter((c) => (c.type ?? 'collection') === 'collection' && !c.name.startsWith('system.'))
    .sort((a, b) => a.name.localeCompare(b.name));
  const file = `${database}.archive`;
  const out = new HashedFile(join(outDir, file));
  const counts: Record<string, number> = {};
  await out.write(serializeLine({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, database }));
  for (const info of collections) {
    const collection = db.collection(info.name);
    const header: CollectionHeader = {
      collection: info.name,
      options: (info as { options?: Document }).options ?? {},
      indexes: (await collection.listIndexes().toArray()).map(indexDefinition),
    };
    await out.write(serializeLine(header as unknown as Document));
    let count = 0;
    // Raw: each document's bytes as the server sent them, never decoded (types kept as stored).
    const cursor = collection.find({}, { raw: true, batchSize: 1000 });
    for await (const raw of cursor as AsyncIterable<unknown> as AsyncIterable<Uint8Array>) {
      await out.write(wrapRawDocument(raw));
      count += 1;
    }
    await out.write(serializeLine({ end: info.name, count }));
    counts[info.name] = count;
  }
  await out.write(serializeLine({ complete: true, collections: collections.length }));
  const sha256 = await out.close();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  targets.log(`${database}: ${collections.length} collections, ${total} documents -> ${file} (${out.bytes} bytes)`);
  return { file, bytes: out.bytes, sha256, collections: counts };
}

async function backupFiles(s3: { client: S3Client; bucket: string }, outDir: string, log: (l: string) => void) {
  const objects: FileEntry[] = [];
  const names: string[] = [];
  // No bucket yet (the files service makes it at its first start): no files, not a failure.
  if (!(await s3.client.bucketExists(s3.bucket))) {
    log(`bucket ${s3.bucket}: not there, no files`);
    return { bucket: s3.bucket, count: 0, bytes: 0, objects };
  }
  const listing = s3.client.listObjectsV2(s3.bucket, '', true);
  for await (const item of listing as AsyncIterable<{ name?: string }>) if (item.name) names.push(item.name);
  for (const key of names) {
    const path = join(outDir, objectPath(key));
    await mkdir(dirname(path), { recursive: true });
    const info = await s3.client.statObject(s3.bucket, key);
    await s3.client.fGetObject(s3.bucket, key, path);
    const { size } = await stat(path);
    objects.push({ key, size, sha256: await fileSha256(path), metadata: storedMetadata(info.metaData ?? {}) });
  }
  const bytes = objects.reduce((a, o) => a + o.size, 0);
  log(`bucket ${s3.bucket}: ${objects.length} files (${bytes} bytes) -> files/`);
  return { bucket: s3.bucket, count: objects.length, bytes, objects };
}

/**
 * Writes every database's archive, the bucket's files beside them (`files/<key>`), then the
 * manifest: written last and under its final name only once complete, so a directory with a
 * manifest holds a whole backup. The services may run meanwhile; each collection is read as
 * it is at the moment it is read (see docs/runbooks/backup-restore.md).
 */
export async function writeBackup(targets: BackupTargets, outDir: string): Promise<BackupManifest> {
  if (existsSync(outDir) && readdirSync(outDir).length > 0)
    throw new BackupInputError(`${outDir} is not empty: give a new or empty directory to --out`);
  await mkdir(outDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const databases: BackupManifest['databases'] = {};
  for (const database of targets.databases) databases[database] = await backupDatabase(targets, outDir, database);
  const files = targets.s3 ? await backupFiles(targets.s3, outDir, targets.log) : null;
  const manifest: BackupManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    startedAt,
    finishedAt: new Date().toISOString(),
    mongoUrl: targets.mongoUrl,
    databases,
    files,
  };
  const partial = join(outDir, `${MANIFEST}.partial`);
  await writeFile(partial, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(partial, join(outDir, MANIFEST));
  return manifest;
}

/** A mistake in how the command was called; printed alone, without "backup failed". */
export class BackupInputError extends Error {}
