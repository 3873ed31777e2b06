import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '@homereport/kit';

export interface BodyLimits {
  /** Every route without a larger limit of its own (the services' default is 1 MiB). */
  defaultBytes: number;
  /** POST /api/admin/requests/:id/upload: up to four report files. */
  uploadBytes: number;
  /** POST /api/admin/zipcodes/import: a JSON array of analyses. */
  importBytes: number;
}

/** The largest body the route of `path` may carry. */
export function bodyLimitFor(path: string, limits: BodyLimits): number {
  if (/^\/api\/admin\/requests\/[^/]+\/upload$/.test(path)) return limits.uploadBytes;
  if (/^\/api\/admin\/zipcodes\/import$/.test(path)) return limits.importBytes;
  return limits.defaultBytes;
}

/**
 * Refuses a request whose declared Content-Length is over its route's limit, before a byte of
 * the body is read or sent on. (A body without a declared length is streamed; the service
 * refuses it when it passes the limit, and the proxy passes that answer on.)
 */
export function refuseOversizedBody(path: string, headers: IncomingHttpHeaders, limits: BodyLimits): void {
  const declared = headers['content-length'];
  if (declared === undefined) return;
  const bytes = Number(declared);
  if (Number.isFinite(bytes) && bytes <= bodyLimitFor(path, limits)) return;
  throw new AppError(413, 'BODY_TOO_LARGE', 'The request body is too large.');
}
