import { describe, expect, it } from 'vitest';
import { requireRedisVersion } from './redis.js';

describe('the Redis version check', () => {
  it('accepts Redis 7 and newer', () => {
    expect(() => requireRedisVersion('# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n')).not.toThrow();
    expect(() => requireRedisVersion('redis_version:8.2.1\r\n')).not.toThrow();
  });

  it('stops the start on an older Redis with a message that says what to do', () => {
    expect(() => requireRedisVersion('# Server\r\nredis_version:6.2.14\r\n')).toThrow(
      /Redis 6\.2\.14 is too old: HomeReport needs Redis 7 or newer/,
    );
  });

  it('refuses when the version cannot be read', () => {
    expect(() => requireRedisVersion('# Server\r\n')).toThrow(/Could not read the Redis version/);
  });
});
