import { randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type ServiceApp, createLogger, createServiceApp, rateLimit, requestBudget } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../test/support/env.js';

const redis = new Redis(testEnv().redisUrl);
const apps: ServiceApp[] = [];
const clients: Redis[] = [redis];
let silent: Server | undefined;
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const client of clients) client.disconnect();
  silent?.close();
});

/** A process counting a budget of `max` a minute in `store` (one of several replicas when they share it). */
async function replica(store: Redis, prefix: string, max: number): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'budget-test',
    logger: createLogger({ name: 'budget-test', level: 'silent', format: 'json' }),
  });
  await app.register(async (limited) => {
    await limited.register(
      rateLimit,
      requestBudget(store, { prefix, max, windowSeconds: 60, message: 'Too many requests. Please slow down.' }),
    );
    limited.get('/ping', async () => ({ ok: true }));
  });
  apps.push(app);
  return app;
}

const ping = (app: ServiceApp, remoteAddress: string) => app.inject({ url: '/ping', remoteAddress });

describe('a request budget against the real Redis', () => {
  it('lets exactly the budget through, then refuses with the wait and a message', async () => {
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
    expect(await redis.get(`${prefix}203.0.113.7`)).toBe('7');
    expect(await redis.pttl(`${prefix}203.0.113.7`)).toBeGreaterThan(55_000);
  });

  it('is shared by replicas: a burst over both lets exactly the budget through', async () => {
    const prefix = `rl-test:${randomUUID()}:`;
    const a = await replica(redis, prefix, 10);
    const b = await replica(redis, prefix, 10);
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => ping(i % 2 ? b : a, '198.51.100.1')));
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(20);
    expect(await redis.get(`${prefix}198.51.100.1`)).toBe('30');
  });

  it('lets requests through when Redis is away or does not answer, without waiting on it', async () => {
    // Nothing listens: every command fails at once.
    const away = new Redis({ port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    // Connected, and never answers (a paused Redis): only the budget's own deadline ends the wait.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
    const hung = new Redis({
      port: (silent.address() as AddressInfo).port,
      host: '127.0.0.1',
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
    });
    for (const client of [away, hung]) {
      client.on('error', () => {});
      clients.push(client);
      const app = await replica(client, `rl-test:${randomUUID()}:`, 1);
      const started = Date.now();
      const answers = [await ping(app, '192.0.2.1'), await ping(app, '192.0.2.1'), await ping(app, '192.0.2.1')];
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      expect(Date.now() - started).toBeLessThan(3 * 400);
    }
  });
});
