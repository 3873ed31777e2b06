import type { CoverageRequest } from '@homereport/contracts';
import type { LegendEntry, MapMarker } from '../../components/usmap/types';

/** The colour of every report's point: one kind of item, so one colour. */
export const PROPERTY_COLOUR = '#2563eb';

export const PROPERTY_LEGEND: LegendEntry[] = [{ colour: PROPERTY_COLOUR, label: 'Property report' }];

/**
 * The ZIP code of an address as people write it ("12 Beacon St, Boston, MA 02116-1234"): the last
 * group of five digits standing alone, since a house number or a suite comes before it. '' when
 * the address names none; the map then says the report is not on it.
 */
export function zipOfAddress(address: string): string {
  const matches = [...address.matchAll(/(?<![0-9])([0-9]{5})(?:-[0-9]{4})?(?![0-9])/g)];
  return matches.at(-1)?.[1] ?? '';
}

/** The map of the list's reports: one marker per report, in the list's order, at its ZIP code. */
export function propertyMapMarkers(properties: readonly CoverageRequest[]): MapMarker[] {
  return properties.map((property) => ({
    key: property.id,
    zipCode: zipOfAddress(property.address),
    label: property.address,
    colour: PROPERTY_COLOUR,
  }));
}
