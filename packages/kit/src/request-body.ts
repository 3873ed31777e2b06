import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** Whether a request declares a body (RFC 9112, 6.3: a transfer coding, or a length above zero). */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** Whether the client may still be sending a body nobody has read. */
export function bodyUnread(req: { headers: IncomingHttpHeaders; raw: IncomingMessage }): boolean {
  return hasBody(req.headers) && !req.raw.complete;
}

/**
 * Reads what is left of a request body and drops it: false when it is longer or slower than the
 * bounds (the connection is then not worth keeping). An answer given while a body is still
 * arriving must not close the connection with unread data, which resets it and can destroy the
 * answer on its way (kit app.ts answerError, the gateway's early-answer.ts).
 */
export function drainBody(
  raw: IncomingMessage,
  { maxBytes = 64 * 1024 * 1024, maxMs = 15_000 } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.removeListener('end', onEnd);
      raw.removeListener('error', onError);
      raw.removeListener('close', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), maxMs);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onError);
    raw.once('close', onClose);
    raw.resume();
  });
}

/** Whether an If-None-Match header names this ETag (weak comparison, as for GET and HEAD; `*` matches any). */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (typeof ifNoneMatch !== 'string') return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
