import type { CoverageRequest } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { PROPERTY_COLOUR, propertyMapMarkers, zipOfAddress } from './propertyMarkers';

describe('zipOfAddress', () => {
  it('reads the ZIP code of an address as people write it', () => {
    expect(zipOfAddress('12 Beacon St, Boston, MA 02116')).toBe('02116');
    expect(zipOfAddress('12 Beacon St, Boston, MA 02116-1234')).toBe('02116');
    // A five-digit house number or suite comes before the ZIP code.
    expect(zipOfAddress('10250 Constellation Blvd Suite 12345, Los Angeles, CA 90067')).toBe('90067');
  });

  it('finds none in an address without one, or in a longer number', () => {
    expect(zipOfAddress('12 Beacon St, Boston, MA')).toBe('');
    expect(zipOfAddress('Lot 1234567, Somewhere')).toBe('');
  });
});

describe('propertyMapMarkers', () => {
  const report = (id: string, address: string) => ({ id, address }) as CoverageRequest;

  it('gives one marker per report, in the list order, keyed by the report and placed by its ZIP code', () => {
    const markers = propertyMapMarkers([
      report('r1', '1 Main St, Austin, TX 78704'),
      report('r2', 'No ZIP Lane, Nowhere'),
      report('r3', '5 Elm St, Austin, TX 78704'),
    ]);
    expect(markers).toEqual([
      { key: 'r1', zipCode: '78704', label: '1 Main St, Austin, TX 78704', colour: PROPERTY_COLOUR },
      { key: 'r2', zipCode: '', label: 'No ZIP Lane, Nowhere', colour: PROPERTY_COLOUR },
      { key: 'r3', zipCode: '78704', label: '5 Elm St, Austin, TX 78704', colour: PROPERTY_COLOUR },
    ]);
  });
});
