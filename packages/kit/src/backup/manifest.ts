import { posix } from 'node:path';
import { MIGRATED_SERVICES } from '../../bin/migrate.mjs';

/**
 * The services' databases (each service's MONGO_DB default): those `npm run migrate` migrates;
 * files keeps its reports in S3 only.
 */
export const SERVICE_DATABASES = MIGRATED_SERVICES.map((service) => `homereport_${service}`);

/** The manifest's file name in a backup directory; its presence means the backup finished. */
export const MANIFEST = 'manifest.json';

export interface FileEntry {
  key: string;
  size: number;
  sha256: string;
  /** Content type and the object's own metadata (the upload's original name), as put back. */
  metadata: Record<string, string>;
}

export interface BackupManifest {
  format: string;
  version: number;
  startedAt: string;
  finishedAt: string;
  /** Where the backup was read from (credentials removed). */
  mongoUrl: string;
  databases: Record<string, { file: string; bytes: number; sha256: string; collections: Record<string, number> }>;
  files: { bucket: string; count: number; bytes: number; objects: FileEntry[] } | null;
}

/**
 * Where an object's copy lives in the backup directory: `files/<key>`. A key that would leave
 * that folder (an absolute path, a `..` segment) is refused rather than written elsewhere.
 */
export function objectPath(key: string): string {
  const normal = posix.normalize(key);
  if (key.length === 0 || posix.isAbsolute(key) || normal.startsWith('..') || normal !== key)
    throw new Error(`object key ${JSON.stringify(key)} cannot be stored as a file`);
  return posix.join('files', key);
}

/**
 * The metadata of an object to put back (minio's statObject names): its content type and its
 * own metadata (minio gives `x-amz-meta-*` without the prefix, and puts such keys back with it).
 * The server's headers (encryption, version, storage class) are its own business, not copied.
 */
export function storedMetadata(meta: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta)) {
    const lower = key.toLowerCase();
    if (typeof value !== 'string' || lower.startsWith('x-amz-')) continue;
    kept[lower] = value;
  }
  return kept;
}
