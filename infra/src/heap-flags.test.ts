import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MEMORY_LIMIT_MIB, NODE_FLAGS, SERVICES } from '../local/stack.mjs';

// Every process the local stack starts gets the heap its pod gets: half its container's limit
// (packages/kit/bin/heap.mjs), and V8 takes it as the whole heap's bound.
describe('the heap of each process of the local stack', () => {
  it('is half its container limit, as V8 reports it from the flags the stack passes', () => {
    for (const name of ['gateway', ...SERVICES]) {
      const limit = MEMORY_LIMIT_MIB[name] as number;
      expect(NODE_FLAGS[name], name).toEqual([`--max-heap-size=${limit / 2}`]);
      const reported = execFileSync(
        process.execPath,
        [...(NODE_FLAGS[name] as string[]), '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'],
        { encoding: 'utf8' },
      );
      expect(Number(reported) / 2 ** 20, name).toBe(limit / 2);
    }
  });
});
