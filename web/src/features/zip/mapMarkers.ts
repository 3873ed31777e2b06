import type { ZipListItem } from '@homereport/contracts';
import { type ColourScale, categoryScale, thresholdScale } from '../../components/usmap/colourScale';
import type { LegendEntry, MapMarker } from '../../components/usmap/types';
import { zipTier } from '../../lib/zipCodes';
import { formatChange, formatPercent } from './zipFormat';

/** What the map of /zip colours ZIP codes by; the value is the `measure` parameter of the address. */
export const MAP_MEASURES = [
  { value: 'tier', label: 'Investment tier' },
  { value: 'appreciation', label: 'One-year appreciation' },
  { value: 'yield', label: 'Gross rental yield' },
] as const;
export type MapMeasure = (typeof MAP_MEASURES)[number]['value'];

/**
 * Tiers by three hues far apart; appreciation red below zero, then viridis from yellow (slow) to
 * deep violet (fast); yield on plasma, a ramp of other hues, so the two measures never look alike.
 * Viridis and plasma keep their order in lightness for the common colour-vision deficiencies and
 * in grey, and none of their steps is pale enough to vanish on the light map. Thresholds are
 * fixed so a colour means the same on every page.
 */
const SCALES: Record<MapMeasure, ColourScale<number>> = {
  tier: categoryScale([
    { value: 1, colour: '#7c3aed', label: 'Tier 1 - Ultra-Premium' },
    { value: 2, colour: '#f59e0b', label: 'Tier 2 - High-Growth' },
    { value: 3, colour: '#0d9488', label: 'Tier 3 - Emerging' },
  ]),
  appreciation: thresholdScale(
    [0, 0.02, 0.04, 0.06, 0.08],
    ['#d73027', '#fde725', '#5ec962', '#21918c', '#3b528b', '#440154'],
    formatPercent,
  ),
  yield: thresholdScale(
    [0.03, 0.05, 0.07, 0.09],
    ['#f0f921', '#f89540', '#cc4778', '#7e03a8', '#0d0887'],
    formatPercent,
  ),
};

/** The number a ZIP code is coloured by; null when the analysis does not say. */
export function measureOf(item: ZipListItem, measure: MapMeasure): number | null {
  switch (measure) {
    case 'tier':
      return zipTier(item.tier).number || null;
    case 'appreciation':
      return item.marketFundamentals.annualAppreciationRate.oneYear;
    case 'yield':
      // Absent from answers kept from before list items carried it: unknown, not zero.
      return item.priceTrends?.rentalMarket.grossYield ?? null;
  }
}

function describe(item: ZipListItem, measure: MapMeasure, value: number | null): string {
  const place = `${item.zipCode}, ${item.location.city}, ${item.location.state}`;
  const what =
    measure === 'tier'
      ? zipTier(item.tier).badge
      : measure === 'appreciation'
        ? `appreciation ${formatChange(value)}`
        : `gross yield ${formatPercent(value)}`;
  return `${place}: ${what}`;
}

/** The map of the list's items: one marker per ZIP code, in the list's order, coloured by `measure`. */
export function zipMapMarkers(
  items: readonly ZipListItem[],
  measure: MapMeasure,
): { markers: MapMarker[]; legend: LegendEntry[] } {
  const scale = SCALES[measure];
  const markers = items.map((item) => {
    const value = measureOf(item, measure);
    return {
      key: item.zipCode,
      zipCode: item.zipCode,
      label: describe(item, measure, value),
      colour: scale.colourOf(value),
    };
  });
  return { markers, legend: scale.legend };
}
