import type { Readable } from 'node:stream';
import type { S3Client } from '@homereport/kit';

/**
 * Report objects in the S3 bucket, written as they stream in. A file is cut into parts of
 * PART_SIZE bytes uploaded one after the other (an S3 multipart upload), so at most about one
 * part per upload is held in memory whatever the file's size; a file smaller than one part is a
 * single PUT. A failed or refused upload is aborted, leaving nothing behind.
 */
const PART_SIZE = 5 * 1024 * 1024; // S3's smallest part but the last

interface StoredObject {
  size: number;
}

interface ObjectInfo {
  size: number;
  contentType: string;
  originalName: string;
}

const NAME_META = 'original-name';

export class ObjectStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  /**
   * Writes `source` to `key`. `beforeCommit` runs after the last byte and before the object
   * becomes visible; throwing there (the file was cut at the size limit) aborts the upload.
   */
  async put(
    key: string,
    source: AsyncIterable<Buffer>,
    meta: { contentType: string; originalName: string },
    beforeCommit: () => void,
  ): Promise<StoredObject> {
    const headers = {
      'Content-Type': meta.contentType,
      // Header values are ASCII: the name travels percent-encoded.
      [`X-Amz-Meta-${NAME_META}`]: encodeURIComponent(meta.originalName),
    };
    // One part-sized buffer per upload, filled and sent, then filled again: no copies pile up.
    const part = Buffer.allocUnsafe(PART_SIZE);
    let filled = 0;
    let size = 0;
    let uploadId: string | null = null;
    const parts: { part: number; etag: string }[] = [];

    const flush = async (bytes: Buffer) => {
      uploadId ??= await this.s3.initiateNewMultipartUpload(this.bucket, key, headers);
      const number = parts.length + 1;
      const { etag } = await this.s3.uploadPart(
        { bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber: number, headers: {} },
        bytes,
      );
      parts.push({ part: number, etag });
    };

    try {
      for await (const chunk of source) {
        size += chunk.length;
        for (let offset = 0; offset < chunk.length; ) {
          const n = Math.min(PART_SIZE - filled, chunk.length - offset);
          chunk.copy(part, filled, offset, offset + n);
          filled += n;
          offset += n;
          // Awaited before the buffer is filled again (the stream waits meanwhile: backpressure).
          if (filled === PART_SIZE) {
            await flush(part);
            filled = 0;
          }
        }
      }
      beforeCommit();
      if (uploadId === null) {
        await this.s3.putObject(this.bucket, key, part.subarray(0, filled), filled, headers);
      } else {
        if (filled > 0) await flush(part.subarray(0, filled));
        await this.s3.completeMultipartUpload(this.bucket, key, uploadId, parts);
      }
      return { size };
    } catch (err) {
      if (uploadId !== null) await this.s3.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw err;
    }
  }

  /** Size, type and original name of an object; null when there is none. */
  async info(key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await this.s3.statObject(this.bucket, key);
      const meta = stat.metaData as Record<string, string>;
      return {
        size: stat.size,
        contentType: meta['content-type'] ?? 'application/octet-stream',
        originalName: safeDecode(meta[NAME_META]) ?? key.split('/').pop() ?? 'report',
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string): Promise<Readable> {
    return this.s3.getObject(this.bucket, key);
  }

  async remove(key: string): Promise<void> {
    await this.s3.removeObject(this.bucket, key);
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

function safeDecode(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
