import { describe, expect, it } from 'vitest';
import { GROUP_TIMING, longestIdleSilenceMs } from './group-timing.js';

// The session is short so a killed process's replacement consumes again within seconds; these
// are the conditions under which a live member is still never taken for dead (group-timing.ts).
describe('GROUP_TIMING', () => {
  it('uses the shortest session a broker accepts by default, not 10 s', () => {
    expect(GROUP_TIMING.sessionTimeout).toBe(6000);
  });

  it('heartbeats at least three times per session', () => {
    expect(GROUP_TIMING.heartbeatInterval * 3).toBeLessThanOrEqual(GROUP_TIMING.sessionTimeout);
  });

  it('leaves an idle member at least 3 s of slack: an idle fetch waits far less than the session', () => {
    expect(GROUP_TIMING.sessionTimeout - longestIdleSilenceMs()).toBeGreaterThanOrEqual(3000);
    // kafkajs' default wait (5 s) would leave 0 s.
    expect(GROUP_TIMING.sessionTimeout - longestIdleSilenceMs({ heartbeatInterval: 1000, maxWaitTimeInMs: 5000 })).toBe(
      0,
    );
  });
});
