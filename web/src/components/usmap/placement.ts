import type { MapMarker } from './types';

/** [longitude, latitude] */
export type LngLat = readonly [number, number];

/** What web/tools/generateZipCentroids.ts writes: exact centroids, and per 3-digit prefix a median. */
export interface CentroidTable {
  zips: Record<string, LngLat>;
  prefixes: Record<string, LngLat>;
}

export interface Centroid {
  lngLat: LngLat;
  /** False when only the ZIP code's region (its first three digits) is known. */
  exact: boolean;
}

/** Where a ZIP code lies: its own centroid, else its region's, else nowhere known. */
export function centroidOf(zipCode: string, table: CentroidTable): Centroid | null {
  if (!/^[0-9]{5}$/.test(zipCode)) return null;
  const own = table.zips[zipCode];
  if (own) return { lngLat: own, exact: true };
  const region = table.prefixes[zipCode.slice(0, 3)];
  return region ? { lngLat: region, exact: false } : null;
}

export interface PlacedMarker extends MapMarker {
  x: number;
  y: number;
  exact: boolean;
}

export interface Placement {
  placed: PlacedMarker[];
  /** Items the map cannot show: an unknown ZIP code, or a place outside the projection. */
  unplaced: MapMarker[];
}

/** Pixels between the centre and the points around it when several items share one ZIP code. */
export const SPREAD_RADIUS = 7;

/**
 * The map's points, one per marker and in the markers' order. Items that share a ZIP code (two
 * reports in one ZIP, or places known only by their region) are set in a small ring around the
 * centre, so each stays visible and the count of points is the count of items.
 * `project` answers null for a place it does not draw (geoAlbersUsa: outside the 50 states).
 */
export function placeMarkers(
  markers: readonly MapMarker[],
  table: CentroidTable,
  project: (lngLat: [number, number]) => [number, number] | null,
): Placement {
  const placed: PlacedMarker[] = [];
  const unplaced: MapMarker[] = [];
  const atPoint = new Map<string, PlacedMarker[]>();
  for (const marker of markers) {
    const centroid = centroidOf(marker.zipCode, table);
    const point = centroid ? project([centroid.lngLat[0], centroid.lngLat[1]]) : null;
    if (!centroid || !point) {
      unplaced.push(marker);
      continue;
    }
    const entry: PlacedMarker = { ...marker, x: point[0], y: point[1], exact: centroid.exact };
    placed.push(entry);
    const key = `${point[0].toFixed(1)},${point[1].toFixed(1)}`;
    atPoint.set(key, [...(atPoint.get(key) ?? []), entry]);
  }
  for (const group of atPoint.values()) {
    if (group.length < 2) continue;
    group.forEach((entry, index) => {
      const angle = (2 * Math.PI * index) / group.length;
      entry.x += SPREAD_RADIUS * Math.cos(angle);
      entry.y += SPREAD_RADIUS * Math.sin(angle);
    });
  }
  return { placed, unplaced };
}
