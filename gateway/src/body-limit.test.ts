import { describe, expect, it } from 'vitest';
import { bodyLimitFor, refuseOversizedBody } from './body-limit.js';

const limits = { defaultBytes: 1000, uploadBytes: 5000, importBytes: 3000 };

describe('body limits at the gateway', () => {
  it('gives uploads and imports their own limit, every other route the default', () => {
    expect(bodyLimitFor('/api/admin/requests/abc/upload', limits)).toBe(5000);
    expect(bodyLimitFor('/api/admin/zipcodes/import', limits)).toBe(3000);
    expect(bodyLimitFor('/api/contact', limits)).toBe(1000);
    expect(bodyLimitFor('/anything', limits)).toBe(1000);
  });

  it('refuses a declared length over the limit with 413, and lets the rest through', () => {
    expect(() => refuseOversizedBody('/api/contact', { 'content-length': '1001' }, limits)).toThrow(
      expect.objectContaining({ statusCode: 413 }),
    );
    expect(() => refuseOversizedBody('/api/contact', { 'content-length': 'lots' }, limits)).toThrow();
    expect(() => refuseOversizedBody('/api/contact', { 'content-length': '1000' }, limits)).not.toThrow();
    expect(() => refuseOversizedBody('/api/contact', {}, limits)).not.toThrow();
    expect(() =>
      refuseOversizedBody('/api/admin/requests/a/upload', { 'content-length': '4000' }, limits),
    ).not.toThrow();
  });
});
