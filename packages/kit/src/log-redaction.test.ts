import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CENSOR, childWithTrace, loggerOptions } from './logger.js';

/** A logger as the processes build it, writing its lines into `lines`. */
function capturing() {
  const lines: string[] = [];
  const logger = pino(loggerOptions({ name: 't', level: 'info', format: 'json' }), {
    write: (l: string) => void lines.push(l),
  });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l)) };
}

describe('log redaction', () => {
  it('censors secret fields at the top and in nested plain objects, leaving the caller’s objects as they were', () => {
    const { logger, parsed } = capturing();
    const given = {
      email: 'a@example.test',
      password: 'hunter2',
      body: { token: 't-123', keep: 1 },
      // Not `req`, which Fastify's request serializer writes without its headers.
      call: { headers: { authorization: 'Bearer abc', 'x-internal-secret': 's', accept: 'x' } },
      statusCode: 200,
    };
    logger.info(given, 'line');
    expect(parsed()[0]).toMatchObject({
      email: 'a@example.test',
      password: CENSOR,
      body: { token: CENSOR, keep: 1 },
      call: { headers: { authorization: CENSOR, 'x-internal-secret': CENSOR, accept: 'x' } },
      statusCode: 200,
    });
    expect(given.password).toBe('hunter2');
    expect(given.call.headers.authorization).toBe('Bearer abc');
  });

  it('passes a line without secrets through as it is', () => {
    const { logger, parsed } = capturing();
    const line = { method: 'GET', url: '/api/x', statusCode: 200, nested: { a: 1 } };
    logger.info(line, 'plain');
    expect(parsed()[0]).toMatchObject(line);
  });
});

describe('log lines', () => {
  it('never carry a secret, on a line or in the bindings of a request’s or event’s logger', () => {
    const { logger, lines, parsed } = capturing();
    logger.info(
      { user: { email: 'a@example.test', passwordHash: '$argon2id$xyz' }, resetUrl: 'https://x/r?token=r-9' },
      'one',
    );
    childWithTrace(logger, { token: 'child-secret', reqId: 'r1' }, 'trace-1').info(
      { body: { password: 'p4ss' } },
      'two',
    );
    const text = lines.join('');
    for (const secret of ['$argon2id$xyz', 'r-9', 'child-secret', 'p4ss']) expect(text).not.toContain(secret);
    const [one, two] = parsed();
    expect(one.user).toEqual({ email: 'a@example.test', passwordHash: CENSOR });
    expect(two).toMatchObject({ reqId: 'r1', token: CENSOR, body: { password: CENSOR }, msg: 'two' });
  });
});
