import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logAccess, loggablePath, loggerOptions } from './logger.js';

/** A stream a pino logger writes to, and the lines it wrote, one JSON line each. */
function lineSink() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, sink };
}

/** A kit service app logging at info to a sink, and the access lines it wrote (once closed). */
async function serviceAppLogged() {
  const { createServiceApp } = await import('./app.js');
  const { lines, sink } = lineSink();
  const app = await createServiceApp({
    name: 'svc',
    logger: pino(loggerOptions({ name: 'svc', level: 'info', format: 'json' }), sink),
  });
  const accessLines = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
  return { app, lines, accessLines };
}

describe('request logging', () => {
  it('logs the path of a request without its query string', async () => {
    const { lines, sink } = lineSink();
    const logger = pino(loggerOptions({ name: 't', level: 'info', format: 'json' }), sink);
    const app = Fastify({ loggerInstance: logger });
    app.get('/reset-password', async () => 'ok');
    await app.inject({ url: '/reset-password?token=s3cr3t-token&x=1' });
    await app.close();
    const text = lines.join('\n');
    expect(text).toContain('"url":"/reset-password"');
    expect(text).not.toContain('s3cr3t-token');
  });

  it('cuts a query or fragment off a path', () => {
    expect(loggablePath('/a/b?token=1')).toBe('/a/b');
    expect(loggablePath('/a#x?y')).toBe('/a');
    expect(loggablePath('/plain')).toBe('/plain');
  });

  it('masks the token of a share link, in its API path and its page', () => {
    expect(loggablePath('/api/shared/abc.def-123?x=1')).toBe('/api/shared/:token');
    expect(loggablePath('/shared/abc.def-123')).toBe('/shared/:token');
    expect(loggablePath('/api/requests/shared-with-me')).toBe('/api/requests/shared-with-me');
  });
});

describe('the access line of a service', () => {
  it('is one JSON line per answered request, as pino would write it, without health probes', async () => {
    const { app, lines, accessLines } = await serviceAppLogged();
    app.get('/things/:id', async () => ({ ok: true }));
    await app.inject({ url: '/things/7?token=s3cr3t', headers: { 'x-request-id': 'req-abc' } });
    await app.inject({ url: '/health/live' });
    await app.close();
    const access = accessLines();
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      name: 'svc',
      reqId: 'req-abc',
      method: 'GET',
      url: '/things/7',
      remoteAddress: '127.0.0.1',
      statusCode: 200,
      msg: 'request completed',
    });
    expect(typeof access[0].time).toBe('number');
    expect(typeof access[0].responseTime).toBe('number');
    expect(lines.join('\n')).not.toContain('s3cr3t');
  });

  it('names no share token: an opened link and a page load are logged without it', async () => {
    const { app, lines, accessLines } = await serviceAppLogged();
    // As the requests service answers the API, and as the gateway answers the page (no route of its own).
    app.get('/api/shared/:token', async (_req, reply) => reply.status(410).send({ gone: true }));
    const token = 'v1.s3cr3t-share-token.sig';
    await app.inject({ url: `/api/shared/${token}` });
    await app.inject({ url: `/shared/${token}` });
    await app.close();
    expect(accessLines().map((l) => [l.url, l.statusCode])).toEqual([
      ['/api/shared/:token', 410],
      ['/shared/:token', 404],
    ]);
    expect(lines.join('\n')).not.toContain('s3cr3t-share-token');
  });
});

describe('logAccess', () => {
  it('goes through pino: formatters and redaction apply to the access line too', () => {
    const { lines, sink } = lineSink();
    const options = loggerOptions({ name: 'gw', level: 'info', format: 'json' });
    const logger = pino({ ...options, formatters: { level: (label) => ({ level: label }) } }, sink);
    logAccess(
      logger,
      { method: 'GET', path: '/api/x', remoteAddress: '127.0.0.9', statusCode: 200, responseTimeMs: 3 },
      'req-1',
    );
    const line = JSON.parse(lines.join(''));
    expect(line).toMatchObject({
      level: 'info',
      name: 'gw',
      reqId: 'req-1',
      method: 'GET',
      url: '/api/x',
      remoteAddress: '127.0.0.9',
      statusCode: 200,
      responseTime: 3,
      msg: 'request completed',
    });
  });
});

describe('the trace id on log lines', () => {
  it('names the current trace once, whether the logger binds it or not', async () => {
    const { childWithTrace } = await import('./logger.js');
    const { continueTrace, runInTrace } = await import('./tracing/context.js');
    const { lines, sink } = lineSink();
    const logger = pino(loggerOptions({ name: 't', level: 'info', format: 'json' }), sink);
    const trace = continueTrace(undefined);
    runInTrace(trace, () => {
      logger.info('service logger inside a trace');
      childWithTrace(logger, { reqId: 'r1' }, trace.traceId).child({ step: 2 }).info('bound child');
    });
    logger.info('outside any trace');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(3);
    const [inside, bound, outside] = lines;
    expect(JSON.parse(inside ?? '{}').traceId).toBe(trace.traceId);
    // Bound once: a duplicate key would show twice in the raw line.
    expect(bound?.split('"traceId"')).toHaveLength(2);
    expect(JSON.parse(bound ?? '{}')).toMatchObject({ traceId: trace.traceId, reqId: 'r1', step: 2 });
    expect(JSON.parse(outside ?? '{}').traceId).toBeUndefined();
  });

  it("keeps each line's fields to itself when the mixin adds nothing (its empty answer is shared)", async () => {
    const { lines, sink } = lineSink();
    const logger = pino(loggerOptions({ name: 't', level: 'info', format: 'json' }), sink);
    logger.info({ first: 1 }, 'one');
    logger.info({ second: 2 }, 'two');
    logger.info('three');
    await new Promise((r) => setImmediate(r));
    const [one, two, three] = lines.map((line) => JSON.parse(line));
    expect(one).toMatchObject({ first: 1, msg: 'one' });
    expect(two).toMatchObject({ second: 2, msg: 'two' });
    expect(two.first).toBeUndefined();
    expect(three.first).toBeUndefined();
    expect(three.second).toBeUndefined();
  });
});
