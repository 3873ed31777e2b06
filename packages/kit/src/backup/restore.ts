import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client as S3Client } from 'minio';
import type { Document, MongoClient } from 'mongodb';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, decodeStoredDocument, readArchive } from './archive.js';
import { BackupInputError, fileSha256 } from './backup.js';
import { type BackupManifest, MANIFEST, objectPath } from './manifest.js';

export interface RestoreTargets {
  mongo: MongoClient;
  s3?: { client: S3Client; bucket: string; region: string };
  log: (line: string) => void;
}

/** Documents written back per insertMany: bounded so one call stays far under 48 MB of BSON. */
const BATCH_DOCUMENTS = 1000;
const BATCH_BYTES = 8 * 1024 * 1024;

/** The manifest of a finished backup, and every file it names present with its size and hash. */
export async function readBackup(fromDir: string): Promise<BackupManifest> {
  const path = join(fromDir, MANIFEST);
  if (!existsSync(path))
    throw new BackupInputError(`${fromDir} has no ${MANIFEST}: not a backup, or one that did not finish`);
  const manifest = JSON.parse(await readFile(path, 'utf8')) as BackupManifest;
  if (manifest.format !== ARCHIVE_FORMAT || manifest.version !== ARCHIVE_VERSION)
    throw new BackupInputError(`${path} is not a ${ARCHIVE_FORMAT} manifest of version ${ARCHIVE_VERSION}`);
  const expected = [
    ...Object.values(manifest.databases).map((d) => ({ path: d.file, size: d.bytes, sha256: d.sha256 })),
    ...(manifest.files?.objects ?? []).map((o) => ({ path: objectPath(o.key), size: o.size, sha256: o.sha256 })),
  ];
  for (const file of expected) {
    const full = join(fromDir, file.path);
    const size = existsSync(full) ? (await stat(full)).size : -1;
    if (size !== file.size || (await fileSha256(full)) !== file.sha256)
      throw new BackupInputError(`${full} is missing or differs from the manifest: the backup is damaged`);
  }
  return manifest;
}

/** Index definitions as createIndexes takes them (the `_id` index comes with the collection). */
function indexSpecs(indexes: Document[]) {
  // As listed (the options in their order), so the restored definitions read as the originals.
  return indexes.filter((i) => i.name !== '_id_') as { key: Document; name: string }[];
}

async function restoreDatabase(targets: RestoreTargets, fromDir: string, database: string, manifest: BackupManifest) {
  const entry = manifest.databases[database];
  if (!entry) throw new Error(`the manifest has no database ${database}`);
  const db = targets.mongo.db(database);
  // The database as it was at the backup, not merged with what is there now.
  await db.dropDatabase();
  let batch: Document[] = [];
  let batchBytes = 0;
  let collection: string | undefined;
  const flush = async () => {
    if (batch.length === 0 || collection === undefined) return;
    await db.collection(collection).insertMany(batch, { ordered: true, bypassDocumentValidation: true });
    batch = [];
    batchBytes = 0;
  };
  for await (const item of readArchive(join(fromDir, entry.file), database)) {
    if (item.kind === 'collection') {
      collection = item.header.collection;
      const options = item.header.options ?? {};
      await db.createCollection(collection, Object.keys(options).length > 0 ? options : undefined);
      const specs = indexSpecs(item.header.indexes ?? []);
      if (specs.length > 0) await db.collection(collection).createIndexes(specs);
    } else if (item.kind === 'document') {
      batch.push(decodeStoredDocument(item.raw));
      batchBytes += item.raw.length;
      if (batch.length >= BATCH_DOCUMENTS || batchBytes >= BATCH_BYTES) await flush();
    } else {
      await flush();
      const stored = await db.collection(item.collection).countDocuments();
      if (stored !== item.count)
        throw new Error(`${database}.${item.collection}: ${stored} documents after restoring ${item.count}`);
      collection = undefined;
    }
  }
  const total = Object.values(entry.collections).reduce((a, b) => a + b, 0);
  targets.log(`${database}: ${Object.keys(entry.collections).length} collections, ${total} documents restored`);
}

async function restoreFiles(s3: NonNullable<RestoreTargets['s3']>, fromDir: string, manifest: BackupManifest) {
  const files = manifest.files;
  if (!files) return 0;
  if (!(await s3.client.bucketExists(s3.bucket))) await s3.client.makeBucket(s3.bucket, s3.region);
  for (const object of files.objects) {
    const path = join(fromDir, objectPath(object.key));
    await s3.client.putObject(s3.bucket, object.key, createReadStream(path), object.size, object.metadata);
  }
  return files.objects.length;
}

/**
 * Puts a backup back: every database of the manifest replaced by its archive (dropped, its
 * collections and indexes created, its documents written, each collection's count checked),
 * then every file put back into the bucket under its key with its metadata. The caller has
 * checked that no service runs (servicesAnswering): a running one would write meanwhile.
 */
export async function restoreBackup(targets: RestoreTargets, fromDir: string, manifest: BackupManifest) {
  for (const database of Object.keys(manifest.databases)) await restoreDatabase(targets, fromDir, database, manifest);
  if (manifest.files && !targets.s3) throw new Error('the backup has files but no object storage was given');
  if (targets.s3) {
    const count = await restoreFiles(targets.s3, fromDir, manifest);
    targets.log(`bucket ${targets.s3.bucket}: ${count} files restored`);
  }
}

/**
 * The services (of `urls`, by name) that answer their liveness check now. Any answer counts,
 * even an error status: something listens there. A refused or silent address does not.
 */
export async function servicesAnswering(urls: Record<string, string>, timeoutMs = 2000): Promise<string[]> {
  const answering = await Promise.all(
    Object.entries(urls).map(async ([name, url]) => {
      try {
        await fetch(new URL('/health/live', url), { signal: AbortSignal.timeout(timeoutMs) });
        return `${name} (${url})`;
      } catch {
        return undefined;
      }
    }),
  );
  return answering.filter((n): n is string => n !== undefined);
}
