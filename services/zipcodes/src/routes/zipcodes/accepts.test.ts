import { describe, expect, it } from 'vitest';
import { accepts } from './index.js';

const req = (value?: string) => ({ headers: value === undefined ? {} : { 'accept-encoding': value } });

describe('accepts (Accept-Encoding)', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br', true],
    ['gzip, deflate, br, zstd', 'gzip', true],
    ['gzip', 'br', false],
    ['br;q=0, gzip', 'br', false],
    ['br;q=0.5', 'br', true],
    ['GZIP', 'gzip', true],
    ['identity', 'gzip', false],
    [undefined, 'gzip', false],
  ] as const)('"%s" accepts %s: %s', (header, coding, expected) => {
    expect(accepts(req(header), coding)).toBe(expected);
  });
});
