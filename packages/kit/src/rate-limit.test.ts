import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { budgetPipeline } from '../../../test/support/budget-redis.js';
import { SharedCounts } from './rate-limit.js';

const made: SharedCounts[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((counts) => counts.close()));
});
const counts = (maxCallers?: number) => {
  const shared = new SharedCounts(budgetPipeline(new Map()) as Redis, 'rl:', 60_000, maxCallers);
  made.push(shared);
  return shared;
};
const MINUTE = 60_000;

describe('a request budget’s counts in memory', () => {
  it('tracks at most maxCallers callers, forgetting the least recently seen first', () => {
    const budget = counts(2);
    expect(budget.hit('a', MINUTE).current).toBe(1);
    expect(budget.hit('a', MINUTE).current).toBe(2);
    expect(budget.hit('b', MINUTE).current).toBe(1);
    // Seen again, so b is now the least recent.
    expect(budget.hit('a', MINUTE).current).toBe(3);
    expect(budget.hit('c', MINUTE).current).toBe(1);
    // a is still counted; b was forgotten and starts afresh.
    expect(budget.hit('a', MINUTE).current).toBe(4);
    expect(budget.hit('b', MINUTE).current).toBe(1);
  });

  it('learns the shared count at a flush, and names the window’s time left', async () => {
    const budget = counts();
    expect(budget.hit('a', MINUTE, 1_000)).toEqual({ current: 1, ttl: MINUTE });
    await budget.flush();
    expect(budget.hit('a', MINUTE).current).toBe(2);
    expect(budget.hit('a', MINUTE).current).toBe(3);
    expect(budget.hit('a', MINUTE).ttl).toBeGreaterThan(MINUTE - 1_000);
  });
});
