import { describe, expect, it } from 'vitest';
import { DIFFERENT_PROPERTIES, SAME_PROPERTY } from './property-key.cases.js';
import { propertyKey, zipCodeOf } from './property-key.js';

describe('propertyKey', () => {
  it.each(SAME_PROPERTY)('%s = %s', (a, b) => {
    expect(propertyKey(a)).toBe(propertyKey(b));
  });

  it.each(DIFFERENT_PROPERTIES)('%s ≠ %s', (a, b) => {
    expect(propertyKey(a)).not.toBe(propertyKey(b));
  });

  it('falls back to the trimmed, case-folded text when the parser cannot read the address', () => {
    expect(propertyKey('  The Old Mill ')).toBe('text:the old mill');
    expect(propertyKey('THE OLD   MILL')).toBe(propertyKey('the old mill'));
    expect(propertyKey('The Old Mill')).not.toBe(propertyKey('The New Mill'));
  });

  it('writes a parsed address in USPS form', () => {
    expect(propertyKey('5 North Oak Avenue Apartment 4, Austin, TX 78701-0001')).toBe('5|n|oak|ave||4|austin|tx|78701');
  });
});

describe('zipCodeOf', () => {
  it('reads the ZIP5 of an address, a ZIP+4 too', () => {
    expect(zipCodeOf('123 Main St, Austin, TX 78701')).toBe('78701');
    expect(zipCodeOf('1 Elm Street, Boston MA 02116-1234')).toBe('02116');
  });

  it('is null for an address without one, or one the parser cannot read', () => {
    expect(zipCodeOf('123 Main St, Austin, TX')).toBeNull();
    expect(zipCodeOf('The Old Mill 78701')).toBeNull();
  });
});
