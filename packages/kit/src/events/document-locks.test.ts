import { describe, expect, it } from 'vitest';
import { DocumentLocks } from './document-locks.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('DocumentLocks', () => {
  it('runs writes to one document one after another, in call order', async () => {
    const locks = new DocumentLocks();
    const log: string[] = [];
    const write = (name: string) =>
      locks.run('doc1', async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
      });
    await Promise.all([write('a'), write('b'), write('c')]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('lets writes to different documents overlap, and a failed write does not block the next', async () => {
    const locks = new DocumentLocks();
    const log: string[] = [];
    await Promise.all([
      locks.run('x', async () => {
        log.push('x start');
        await tick();
        log.push('x end');
      }),
      locks.run('y', async () => {
        log.push('y start');
      }),
    ]);
    expect(log.indexOf('y start')).toBeLessThan(log.indexOf('x end'));
    await expect(locks.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.run('x', async () => 'next')).resolves.toBe('next');
  });
});
