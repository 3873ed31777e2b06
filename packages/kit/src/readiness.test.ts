import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.js';

const up = async () => {};
const down = async () => {
  throw new Error('connection refused');
};
const hangs = () => new Promise<never>(() => {});

describe('readiness', () => {
  it('is ready with every dependency up', async () => {
    const readiness = new Readiness();
    readiness.add('mongo', up);
    readiness.add('redis', up, { essential: false });
    expect(await readiness.run()).toEqual({ ready: true, status: 'ready', checks: { mongo: 'up', redis: 'up' } });
  });

  it('stays ready, degraded, with a degradable dependency down or hung, and names it', async () => {
    const readiness = new Readiness();
    readiness.add('mongo', up);
    readiness.add('redis', hangs, { essential: false });
    readiness.add('kafka', down, { essential: false });
    expect(await readiness.run(50)).toEqual({
      ready: true,
      status: 'degraded',
      checks: { mongo: 'up', redis: 'down', kafka: 'down' },
    });
  });

  it('is not ready with an essential dependency down', async () => {
    const readiness = new Readiness();
    readiness.add('mongo', hangs);
    readiness.add('redis', up, { essential: false });
    expect(await readiness.run(50)).toMatchObject({ ready: false, status: 'not ready', checks: { mongo: 'down' } });
  });
});
