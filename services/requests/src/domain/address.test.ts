import { describe, expect, it } from 'vitest';
import { cleanAddress, optionalText } from './address.js';

describe('addresses', () => {
  it('cleans spacing but keeps capitals', () => {
    expect(cleanAddress('  12  Main St,\tSpringfield  ')).toBe('12 Main St, Springfield');
  });

  it('treats blank optional text as not given', () => {
    expect(optionalText('   ')).toBeNull();
    expect(optionalText(undefined)).toBeNull();
    expect(optionalText(' note ')).toBe('note');
  });
});
