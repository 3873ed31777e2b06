import { describe, expect, it } from 'vitest';
import { restartDelayMs } from '../local/stack.mjs';

// The local stack restarts a crashed process as the kubelet restarts a container: at once the
// first time, so a single crash costs only the process's start (bench:faults, kill rows), and with
// a growing wait while it keeps crashing, so a process that cannot start does not spin.
describe('restartDelayMs', () => {
  it('restarts at once after a first crash', () => {
    expect(restartDelayMs(1)).toBe(0);
  });

  it('waits 1 s after the second crash in a row, doubling up to 30 s', () => {
    expect([2, 3, 4, 5, 6, 7, 8, 20].map(restartDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
