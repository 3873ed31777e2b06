import { describe, expect, it } from 'vitest';
import { addressKey, cleanAddress, optionalText } from './address.js';

describe('addresses', () => {
  it('cleans spacing but keeps capitals', () => {
    expect(cleanAddress('  12  Main St,\tSpringfield  ')).toBe('12 Main St, Springfield');
  });

  it('gives the same key to the same address typed differently', () => {
    const key = addressKey('12 Main St, Springfield, IL');
    expect(addressKey('  12 main st ,  springfield, il. ')).toBe(key);
    expect(addressKey('12 MAIN ST, SPRINGFIELD, IL')).toBe(key);
    expect(addressKey('14 Main St, Springfield, IL')).not.toBe(key);
  });

  it('treats blank optional text as not given', () => {
    expect(optionalText('   ')).toBeNull();
    expect(optionalText(undefined)).toBeNull();
    expect(optionalText(' note ')).toBe('note');
  });
});
