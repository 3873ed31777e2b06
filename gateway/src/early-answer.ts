import type { IncomingMessage } from 'node:http';
import type { AppError } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether the client is still sending a body the gateway has not read. */
export function bodyUnread(req: FastifyRequest): boolean {
  const declared = Number(req.headers['content-length'] ?? 0);
  return (declared > 0 || req.headers['transfer-encoding'] !== undefined) && !req.raw.complete;
}

/**
 * Answers an error before the body was read, without losing the answer. Node closes the
 * connection of an answered request whose body is still arriving, and a socket closed with
 * unread data is reset: a client still writing then sees a broken pipe instead of our 413 or
 * 401. So the answer goes out first, the rest of the body is read and dropped (at most
 * `maxBytes` or `maxMs`, then the connection is closed anyway), and only then does the
 * response end and the connection close, as nginx's lingering close does.
 */
export function answerWhileDraining(
  req: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  { maxBytes = 256 * 1024 * 1024, maxMs = 30_000 } = {},
): FastifyReply {
  const body = JSON.stringify({ error: error.message, code: error.code });
  const res = reply.raw;
  // Headers set by our hooks (request id, security headers) go out with the hand-written answer.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value as string | string[]);
  }
  if (error.extra.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(error.extra.retryAfterSeconds));
  reply.hijack();
  res.writeHead(error.statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.write(body);
  drain(req.raw, maxBytes, maxMs).finally(() => res.end());
  req.log.info({ statusCode: error.statusCode, code: error.code }, 'answered before reading the body');
  return reply;
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
