import { isZipCode } from '../../lib/zipCodes';
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
  if (!isZipCode(zipCode)) return null;
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

/**
 * The map's points, one per marker and in the markers' order. Items that share a place (two
 * reports in one ZIP code) are drawn as one circle with their count (clusters.ts).
 * `project` answers null for a place it does not draw (geoAlbersUsa: outside the 50 states).
 */
export function placeMarkers(
  markers: readonly MapMarker[],
  table: CentroidTable,
  project: (lngLat: [number, number]) => [number, number] | null,
): Placement {
  const placed: PlacedMarker[] = [];
  const unplaced: MapMarker[] = [];
  for (const marker of markers) {
    const centroid = centroidOf(marker.zipCode, table);
    const point = centroid ? project([centroid.lngLat[0], centroid.lngLat[1]]) : null;
    if (!centroid || !point) {
      unplaced.push(marker);
      continue;
    }
    placed.push({ ...marker, x: point[0], y: point[1], exact: centroid.exact });
  }
  return { placed, unplaced };
}
