import type { ZipListItem } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_COLOUR } from '../../components/usmap/colourScale';
import { measureOf, zipMapMarkers } from './mapMarkers';

function item(zipCode: string, tier: string, appreciation: number | null, grossYield?: number | null): ZipListItem {
  return {
    zipCode,
    tier,
    location: { city: 'Boston', state: 'MA', neighborhood: null },
    marketFundamentals: { medianSalePrice: { value: 900_000 }, annualAppreciationRate: { oneYear: appreciation } },
    executiveSummary: { riskLevel: 'low' },
    investmentProfile: null,
    ...(grossYield === undefined ? {} : { priceTrends: { rentalMarket: { grossYield } } }),
  };
}

const list = [
  item('02116', 'TIER 1: Ultra-Premium', 0.054, 0.031),
  item('78704', 'TIER 2: High-Growth', -0.034, 0.062),
  item('44113', 'TIER 3: Emerging', null, 0.095),
  item('30318', 'TIER 2: High-Growth', 0.02),
];

describe('zipMapMarkers', () => {
  it('gives one marker per list item, in the list order, keyed and placed by ZIP code', () => {
    const { markers } = zipMapMarkers(list, 'tier');
    expect(markers.map((m) => [m.key, m.zipCode])).toEqual(list.map((i) => [i.zipCode, i.zipCode]));
  });

  it('colours by tier: the two Tier 2 markets alike, the three tiers apart', () => {
    const colours = zipMapMarkers(list, 'tier').markers.map((m) => m.colour);
    expect(colours[1]).toBe(colours[3]);
    expect(new Set(colours.slice(0, 3)).size).toBe(3);
    expect(colours).not.toContain(UNKNOWN_COLOUR);
  });

  it('colours by appreciation: a fall and a rise apart, an unknown rate grey', () => {
    const { markers, legend } = zipMapMarkers(list, 'appreciation');
    expect(markers[0]?.colour).not.toBe(markers[1]?.colour);
    expect(markers[2]?.colour).toBe(UNKNOWN_COLOUR);
    // Each colour the map uses is explained in the legend.
    for (const marker of markers) expect(legend.map((l) => l.colour)).toContain(marker.colour);
    expect(legend[0]?.label).toBe('Below 0.0%');
  });

  it('colours by yield; an item without the yield (an answer kept from before) is unknown, not zero', () => {
    const { markers } = zipMapMarkers(list, 'yield');
    expect(new Set(markers.slice(0, 3).map((m) => m.colour)).size).toBe(3);
    expect(markers[3]?.colour).toBe(UNKNOWN_COLOUR);
    expect(measureOf(list[3] as ZipListItem, 'yield')).toBeNull();
  });

  it('labels each point with its place and the measure shown', () => {
    expect(zipMapMarkers(list, 'tier').markers[0]?.label).toBe('02116, Boston, MA: TIER 1');
    expect(zipMapMarkers(list, 'appreciation').markers[0]?.label).toBe('02116, Boston, MA: appreciation +5.4%');
    expect(zipMapMarkers(list, 'yield').markers[1]?.label).toBe('78704, Boston, MA: gross yield 6.2%');
    expect(zipMapMarkers(list, 'appreciation').markers[2]?.label).toBe('44113, Boston, MA: appreciation N/A');
  });
});
