import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CENSOR, redactSecrets } from './log-redaction.js';
import { childWithTrace, loggerOptions } from './logger.js';

describe('redactSecrets', () => {
  it('censors secret fields at the top and in nested plain objects, leaving the caller’s objects as they were', () => {
    const given = {
      email: 'a@example.test',
      password: 'hunter2',
      body: { token: 't-123', keep: 1 },
      req: { headers: { authorization: 'Bearer abc', 'x-internal-secret': 's', accept: 'x' } },
      statusCode: 200,
    };
    const out = redactSecrets(given);
    expect(out).toEqual({
      email: 'a@example.test',
      password: CENSOR,
      body: { token: CENSOR, keep: 1 },
      req: { headers: { authorization: CENSOR, 'x-internal-secret': CENSOR, accept: 'x' } },
      statusCode: 200,
    });
    expect(given.password).toBe('hunter2');
    expect(given.req.headers.authorization).toBe('Bearer abc');
  });

  it('passes a line without secrets through as the same object', () => {
    const line = { method: 'GET', url: '/api/x', statusCode: 200, nested: { a: 1 } };
    expect(redactSecrets(line)).toBe(line);
  });
});

describe('log lines', () => {
  it('never carry a secret, on a line or in the bindings of a request’s or event’s logger', () => {
    const lines: string[] = [];
    const sink = { write: (l: string) => void lines.push(l) };
    const logger = pino(loggerOptions({ name: 't', level: 'info', format: 'json' }), sink);
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
    const [one, two] = lines.map((l) => JSON.parse(l));
    expect(one.user).toEqual({ email: 'a@example.test', passwordHash: CENSOR });
    expect(two).toMatchObject({ reqId: 'r1', token: CENSOR, body: { password: CENSOR }, msg: 'two' });
  });
});
