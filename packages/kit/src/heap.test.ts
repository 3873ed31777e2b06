import { describe, expect, it } from 'vitest';
import { HEAP_SHARE_OF_LIMIT, containerLimitMib, heapFlags, heapMib } from '../bin/heap.mjs';

const noCgroup = () => {
  throw new Error('ENOENT');
};

describe('the heap sized from the container limit (bin/heap.mjs)', () => {
  it('takes half the limit, never less than 64 MiB', () => {
    expect(HEAP_SHARE_OF_LIMIT).toBe(0.5);
    expect(heapMib(256)).toBe(128);
    expect(heapMib(512)).toBe(256);
    expect(heapMib(100)).toBe(64);
    expect(() => heapMib(0)).toThrow(/memory limit/);
  });

  it('reads the limit the manifests pass (MiB), else the cgroup, else gives no flag', () => {
    expect(heapFlags({ MEMORY_LIMIT_MIB: '256' }, noCgroup)).toEqual(['--max-heap-size=128']);
    // compose's mem_limit: cgroup v2, then v1.
    const v2 = (path: string) => (path === '/sys/fs/cgroup/memory.max' ? `${512 * 2 ** 20}\n` : noCgroup());
    expect(heapFlags({}, v2)).toEqual(['--max-heap-size=256']);
    const v1 = (path: string) => (path.endsWith('memory.limit_in_bytes') ? String(384 * 2 ** 20) : noCgroup());
    expect(containerLimitMib({}, v1)).toBe(384);
    // No limit at all: V8 sizes the heap itself, as before.
    expect(heapFlags({}, (path) => (path.endsWith('memory.max') ? 'max\n' : noCgroup()))).toEqual([]);
    expect(heapFlags({}, (path) => (path.endsWith('limit_in_bytes') ? '9223372036854771712' : noCgroup()))).toEqual([]);
    expect(heapFlags({}, noCgroup)).toEqual([]);
  });

  it('refuses a limit that is not a number of MiB, naming the setting', () => {
    for (const bad of ['256Mi', '-1', 'abc'])
      expect(() => heapFlags({ MEMORY_LIMIT_MIB: bad }, noCgroup), bad).toThrow(/MEMORY_LIMIT_MIB/);
  });
});
