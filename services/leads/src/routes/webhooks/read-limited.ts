import type { IncomingMessage } from 'node:http';
import { AppError } from '@homereport/kit';

/**
 * A body over the limit is still read to its end (and dropped) up to this size before the 413
 * goes out: answering while the gateway is still sending makes the connection reset under it, and
 * the caller would see a 503 instead of the 413. Beyond this the connection is simply cut.
 */
const DRAIN_MAX = 8 * 1024 * 1024;

const tooLarge = () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');

/** The body's bytes, or a 413 once it is known to be over `limit` (after draining it). */
export function readLimited(payload: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(payload.headers['content-length']);
    if (declared > DRAIN_MAX) {
      payload.destroy();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_MAX) {
        payload.destroy();
        reject(tooLarge());
      } else if (size <= limit) {
        chunks.push(chunk);
      } else {
        chunks.length = 0;
      }
    });
    payload.on('end', () => (size > limit ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    payload.on('error', reject);
  });
}
