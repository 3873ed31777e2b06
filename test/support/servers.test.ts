import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALLOW_SKIP_ENV, serversPresent } from './servers.js';

describe('serversPresent', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('runs the suite when its servers are there', () => {
    expect(serversPresent(true, 'unused')).toBe(true);
  });

  it('fails, naming what is missing and the opt-out, when they are not', () => {
    vi.stubEnv(ALLOW_SKIP_ENV, '');
    expect(() => serversPresent(false, 'this suite stops the local Kafka')).toThrow(
      /this suite stops the local Kafka\. Set ALLOW_SKIP_WITHOUT_SERVERS=1/,
    );
  });

  it('skips, saying so, only under the explicit opt-out', () => {
    vi.stubEnv(ALLOW_SKIP_ENV, '1');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(serversPresent(false, 'this suite stops the local Kafka')).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('skipped: this suite stops the local Kafka'));
  });
});
