import { randomUUID } from 'node:crypto';
import { type ServiceApp, SharedCounts, createLogger, createServiceApp, requestBudget } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../test/support/env.js';

const redis = new Redis(testEnv().redisUrl);
const apps: ServiceApp[] = [];
const counters: SharedCounts[] = [];
afterAll(async () => {
  await Promise.all([...apps.map((app) => app.close()), ...counters.map((c) => c.close())]);
  redis.disconnect();
});

/** A process with a budget of `max` a minute counted in `store` (one of several replicas when they share it). */
async function replica(store: Redis, prefix: string, max: number): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'budget-test',
    logger: createLogger({ name: 'budget-test', level: 'silent', format: 'json' }),
  });
  await app.register(async (limited) => {
    await limited.register(requestBudget, {
      redis: store,
      prefix,
      max,
      windowSeconds: 60,
      message: 'Too many requests. Please slow down.',
    });
    limited.get('/ping', async () => ({ ok: true }));
  });
  apps.push(app);
  return app;
}

const ping = (app: ServiceApp, remoteAddress: string) => app.inject({ url: '/ping', remoteAddress });
const MINUTE = 60_000;

describe('a request budget against the real Redis', () => {
  it('lets exactly the budget through on one replica, then refuses with the wait and a message', async () => {
    const prefix = `rl-test:${randomUUID()}:`;
    const app = await replica(redis, prefix, 5);
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await ping(app, '203.0.113.7'));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const over = answers[5];
    expect(Number(over?.headers['retry-after'])).toBeGreaterThan(55);
    expect(Number(over?.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over?.json()).toEqual({ error: 'Too many requests. Please slow down.', code: 'RATE_LIMITED' });
    expect(over?.headers['x-ratelimit-limit']).toBeUndefined();
    // Another client has a budget of its own.
    expect((await ping(app, '203.0.113.8')).statusCode).toBe(200);
  });

  it('is shared by replicas: what one let through counts on the other after a flush', async () => {
    const prefix = `rl-test:${randomUUID()}:`;
    const replicaOf = () => {
      const counts = new SharedCounts(redis, prefix, MINUTE);
      counters.push(counts);
      return counts;
    };
    const [a, b] = [replicaOf(), replicaOf()];
    const client = '198.51.100.1';
    for (let i = 1; i <= 8; i++) expect(a.hit(client, MINUTE).current).toBe(i);
    await a.flush();
    expect(await redis.get(`${prefix}${client}`)).toBe('8');
    expect(await redis.pttl(`${prefix}${client}`)).toBeGreaterThan(55_000);
    // b learns the shared count at its first flush; until then it judges by its own hits.
    expect(b.hit(client, MINUTE).current).toBe(1);
    await b.flush();
    expect(b.hit(client, MINUTE).current).toBe(10);
    expect(b.hit(client, MINUTE).current).toBe(11);
    await Promise.all([a.flush(), b.flush()]);
    expect(await redis.get(`${prefix}${client}`)).toBe('11');
    expect(a.hit(client, MINUTE).current).toBe(9); // a has not flushed since b's hits: the bounded overshoot
    await a.flush();
    expect(a.hit(client, MINUTE).current).toBe(13);
  });

  it('goes on limiting on its own count, without waiting, when Redis is away', async () => {
    // Nothing listens: every flush fails.
    const away = new Redis({ port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    away.on('error', () => {});
    const app = await replica(away, `rl-test:${randomUUID()}:`, 2);
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await ping(app, '192.0.2.1'));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expect(Date.now() - started).toBeLessThan(1000);
    away.disconnect();
  });
});
