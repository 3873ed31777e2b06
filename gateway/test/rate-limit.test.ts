import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../test/support/env.js';
import { SharedRateLimit } from '../src/rate-limit.js';

const redis = new Redis(testEnv().redisUrl);
const limits: SharedRateLimit[] = [];
afterAll(async () => {
  await Promise.all(limits.map((l) => l.close()));
  await redis.quit();
});

const replica = (prefix: string, perWindow: number) => {
  const limit = new SharedRateLimit({ redis, prefix, windowSeconds: 60, perWindow, flushMs: 60_000 });
  limits.push(limit);
  return limit;
};

describe('the gateway request budget against the real Redis', () => {
  it('lets exactly the budget through on one replica, then names the wait', () => {
    const limit = replica(`rl-test:${randomUUID()}:`, 5);
    const answers = Array.from({ length: 7 }, () => limit.hit('203.0.113.7'));
    expect(answers.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(answers[5]).toBeGreaterThan(55);
    expect(answers[5]).toBeLessThanOrEqual(60);
    // Another client has a budget of its own.
    expect(limit.hit('203.0.113.8')).toBeNull();
  });

  it('is shared by replicas: what one let through counts on the other after a flush', async () => {
    const prefix = `rl-test:${randomUUID()}:`;
    const a = replica(prefix, 10);
    const b = replica(prefix, 10);
    for (let i = 0; i < 8; i++) expect(a.hit('198.51.100.1')).toBeNull();
    await a.flush();
    expect(await redis.get(`${prefix}198.51.100.1`)).toBe('8');
    expect(await redis.ttl(`${prefix}198.51.100.1`)).toBeGreaterThan(55);
    // b learns the shared count at its first flush; until then it judges by its own hits.
    expect(b.hit('198.51.100.1')).toBeNull();
    await b.flush();
    expect(b.hit('198.51.100.1')).toBeNull();
    expect(b.hit('198.51.100.1')).not.toBeNull();
    await Promise.all([a.flush(), b.flush()]);
    expect(await redis.get(`${prefix}198.51.100.1`)).toBe('11');
    expect(a.hit('198.51.100.1')).toBeNull(); // a has not flushed since b's hits: the bounded overshoot
    await a.flush();
    expect(a.hit('198.51.100.1')).not.toBeNull();
  });
});
