import { afterEach, describe, expect, it } from 'vitest';
import { SharedRateLimit } from './rate-limit.js';
import { fakeRedis } from './test-doubles.js';

const limits: SharedRateLimit[] = [];
afterEach(async () => {
  await Promise.all(limits.splice(0).map((limit) => limit.close()));
});
const limit = (perWindow: number, maxClients?: number) => {
  const made = new SharedRateLimit({
    redis: fakeRedis(),
    prefix: 'rl:',
    windowSeconds: 60,
    perWindow,
    flushMs: 60_000,
    ...(maxClients === undefined ? {} : { maxClients }),
  });
  limits.push(made);
  return made;
};

describe('the gateway request budget in memory', () => {
  it('tracks at most maxClients clients, forgetting the least recently seen first', () => {
    const budget = limit(1, 2);
    expect(budget.hit('a')).toBeNull();
    expect(budget.hit('a')).not.toBeNull();
    expect(budget.hit('b')).toBeNull();
    // Seen again, so b is now the least recent.
    expect(budget.hit('a')).not.toBeNull();
    expect(budget.hit('c')).toBeNull();
    // a is still over its budget; b was forgotten and starts afresh.
    expect(budget.hit('a')).not.toBeNull();
    expect(budget.hit('b')).toBeNull();
  });

  it('learns the shared count at a flush', async () => {
    const budget = limit(3);
    expect(budget.hit('a')).toBeNull();
    await budget.flush();
    expect(budget.hit('a')).toBeNull();
    expect(budget.hit('a')).toBeNull();
    expect(budget.hit('a')).toBe(60);
  });
});
