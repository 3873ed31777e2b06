import { describe, expect, it } from 'vitest';
import { DIFFERENT_PROPERTIES, SAME_PROPERTY } from './property-key.cases.js';
import { propertyKey, zipOfKey } from './property-key.js';

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

describe('the ZIP code of a property', () => {
  it.each([
    ['123 Main St., Denver CO 80202-1234', '80202'],
    ['22 Harbor Court, Portland, ME 04101', '04101'],
    ['5 N Oak Ave #4, Austin, TX', null],
    ['somewhere near the lake 80202', null],
  ])('%s: %s', (address, zip) => {
    expect(zipOfKey(propertyKey(address))).toBe(zip);
  });
});
