import { Readable } from 'node:stream';
import { type AppError, bodyUnread, drainBody } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
  drainBody(req.raw, { maxBytes, maxMs }).finally(() => answer.push(null));
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
