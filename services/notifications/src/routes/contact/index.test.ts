import { type Redis, type ServiceApp, createLogger, createServiceApp } from '@homereport/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { budgetPipeline } from '../../../../../test/support/budget-redis.js';
import type { ContactMessages } from '../../domain/ports.js';
import { CONTACT_RATE_KEY_PREFIX, contactRoutes } from './index.js';

// The contact form's hourly allowances on an app without servers: which counters a message
// spends, and the answer past them. Through the gateway and a real Redis: test/contact.test.ts.

let app: ServiceApp | undefined;
/** Closing sends the counts still held in memory to Redis. */
async function close() {
  await app?.close();
  app = undefined;
}
afterEach(close);

/** The app with these limits; `counters` are the budgets' totals in the Redis they flush to (unless `redis` is given). */
async function build(limits: { limitPerHour: number; limitPerAddressPerHour: number }, given?: Redis) {
  const counters = new Map<string, string>();
  const redis = given ?? (budgetPipeline(counters, 3_600_000) as Redis);
  const stored: string[] = [];
  const messages: ContactMessages = {
    async insertWithEvents(message) {
      stored.push(message.email);
    },
  };
  app = await createServiceApp({
    name: 'notifications',
    logger: createLogger({ name: 'notifications', level: 'silent', format: 'json' }),
    // The client address is the one the test says it forwarded, as the gateway does.
    trustProxy: true,
  });
  await app.register(contactRoutes, { messages, redis, ...limits });
  // Listening, not injected: a refusal reads what is left of the body from a real socket.
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const send = async (email: string, clientAddress: string) => {
    const res = await fetch(`${origin}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress },
      body: JSON.stringify({ name: 'Ann', email, subject: 'Hi', message: 'Question' }),
    });
    return { statusCode: res.status, headers: res.headers, body: await res.json() };
  };
  return { stored, send, counters };
}

describe('the contact form’s hourly allowances', () => {
  it('over the client address’s, refuses with 429 and the wait, stores nothing and spends no sender allowance', async () => {
    const { stored, send, counters } = await build({ limitPerHour: 1, limitPerAddressPerHour: 3 });
    expect((await send('ann@example.test', '203.0.113.7')).statusCode).toBe(202);
    const refused = await send('ann@example.test', '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringMatching(/wait/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(stored).toEqual(['ann@example.test']);
    await close();
    expect(counters.get(`${CONTACT_RATE_KEY_PREFIX}203.0.113.7`)).toBe('2');
    const senderCounters = [...counters].filter(([key]) => key.startsWith(`${CONTACT_RATE_KEY_PREFIX}address:`));
    expect(senderCounters.map(([, count]) => count)).toEqual(['1']);
  });

  it('counts the sender email address as well, by a digest, and refuses when it is over', async () => {
    const { stored, send, counters } = await build({ limitPerHour: 5, limitPerAddressPerHour: 1 });
    expect((await send('ann@example.test', '203.0.113.7')).statusCode).toBe(202);
    expect((await send('Ann@Example.test', '203.0.113.8')).statusCode).toBe(429);
    expect(stored).toHaveLength(1);
    await close();
    const keys = [...counters.keys()];
    expect(keys.filter((key) => /^notifications:contact-rate:address:[0-9a-f]{32}$/.test(key))).toHaveLength(1);
    expect(keys.join()).not.toContain('example.test');
  });

  it('with the limits at 0, counts nothing', async () => {
    const unused = {
      pipeline: () => {
        throw new Error('should not be called');
      },
    } as unknown as Redis;
    const { stored, send } = await build({ limitPerHour: 0, limitPerAddressPerHour: 0 }, unused);
    for (let i = 0; i < 3; i++) expect((await send('ann@example.test', '203.0.113.7')).statusCode).toBe(202);
    expect(stored).toHaveLength(3);
  });
});
