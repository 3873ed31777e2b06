import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { AppError } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether the client is still sending a body the gateway has not read. */
export function bodyUnread(req: FastifyRequest): boolean {
  const declared = Number(req.headers['content-length'] ?? 0);
  return (declared > 0 || req.headers['transfer-encoding'] !== undefined) && !req.raw.complete;
}

/**
 * Refuses a request with `error`. One whose body is still arriving is answered without losing
 * the answer: Node closes the connection of an answered request whose body is still arriving,
 * and a socket closed with unread data is reset, so a client still writing would see a broken
 * pipe instead of our 413 or 401. So the answer goes out first, the rest of the body is read and
 * dropped (at most `maxBytes` or `maxMs`, then the connection is closed anyway), and only then
 * does the response end and the connection close, as nginx's lingering close does. Fastify sends
 * it (a stream that ends once the body was drained), so our hooks' headers and the access line
 * come with it. Anything else goes to Fastify's error handler.
 */
export function refuse(
  req: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  { maxBytes = 256 * 1024 * 1024, maxMs = 30_000 } = {},
): FastifyReply {
  if (!bodyUnread(req)) throw error;
  const body = JSON.stringify({ error: error.message, code: error.code });
  if (error.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.extra.retryAfterSeconds));
  const answer = new Readable({ read() {} });
  answer.push(body);
  drain(req.raw, maxBytes, maxMs).finally(() => answer.push(null));
  req.log.info({ statusCode: error.statusCode, code: error.code }, 'answered before reading the body');
  return reply
    .status(error.statusCode)
    .header('content-type', 'application/json; charset=utf-8')
    .header('content-length', Buffer.byteLength(body))
    .header('connection', 'close')
    .send(answer);
}

/**
 * `refuse` from a callback-style hook (no promise per request on the common path where nothing
 * is refused): the answer is sent and the hook chain stops there, or the error goes to
 * Fastify's error handler.
 */
export function refuseFromHook(
  req: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  done: (err?: Error) => void,
): void {
  try {
    refuse(req, reply, error);
  } catch (err) {
    done(err as Error);
  }
}

function drain(raw: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done();
    };
    const timer = setTimeout(done, maxMs);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}
