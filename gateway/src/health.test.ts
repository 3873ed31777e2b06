import { describe, expect, it } from 'vitest';
import { type HealthAnswer, cachedHealth } from './health.js';

const answer: HealthAnswer = {
  ok: true,
  body: { status: 'ok', services: {} as HealthAnswer['body']['services'], dependencies: {} },
};

describe('the cached health answer', () => {
  it('asks the services once for any number of callers within the cache time, and again after it', async () => {
    let now = 0;
    let checks = 0;
    const health = cachedHealth(
      async () => {
        checks += 1;
        return answer;
      },
      1500,
      () => now,
    );
    await Promise.all([health(), health(), health()]);
    now = 1000;
    await health();
    expect(checks).toBe(1);
    now = 1600;
    await health();
    expect(checks).toBe(2);
  });

  it('does not keep a failed check', async () => {
    let fail = true;
    const health = cachedHealth(async () => {
      if (fail) throw new Error('boom');
      return answer;
    });
    await expect(health()).rejects.toThrow('boom');
    fail = false;
    await expect(health()).resolves.toBe(answer);
  });
});
