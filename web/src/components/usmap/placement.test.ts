import { describe, expect, it } from 'vitest';
import sample from '../../../../services/zipcodes/sample/analyses.json';
import { clusterMarkers } from './clusters';
import { HEIGHT, WIDTH, centroidTable, project, statePaths } from './geometry';
import { type CentroidTable, centroidOf, placeMarkers } from './placement';
import type { MapMarker } from './types';

const table: CentroidTable = {
  zips: { '02116': [-71.08, 42.35] },
  prefixes: { '021': [-71.1, 42.3], '100': [-74, 40.7] },
};
/** A stand-in projection: longitude and latitude as they are, nothing east of -60 (the Atlantic). */
const flat = ([lng, lat]: [number, number]): [number, number] | null => (lng > -60 ? null : [lng, lat]);
const marker = (key: string, zipCode: string): MapMarker => ({ key, zipCode, label: key, colour: 'blue' });

describe('centroidOf', () => {
  it("takes the ZIP code's own centroid, else its region's, else none", () => {
    expect(centroidOf('02116', table)).toEqual({ lngLat: [-71.08, 42.35], exact: true });
    expect(centroidOf('02199', table)).toEqual({ lngLat: [-71.1, 42.3], exact: false });
    expect(centroidOf('99999', table)).toBeNull();
    expect(centroidOf('', table)).toBeNull();
    expect(centroidOf('0211', table)).toBeNull();
  });
});

describe('placeMarkers', () => {
  it('places one point per marker, in order, and keeps what it cannot place apart', () => {
    const { placed, unplaced } = placeMarkers(
      [marker('a', '02116'), marker('b', '99999'), marker('c', '10001'), marker('d', '')],
      table,
      flat,
    );
    expect(placed.map((p) => [p.key, p.x, p.y, p.exact])).toEqual([
      ['a', -71.08, 42.35, true],
      ['c', -74, 40.7, false],
    ]);
    expect(unplaced.map((m) => m.key)).toEqual(['b', 'd']);
  });

  it('leaves out a place the projection does not draw', () => {
    const outside: CentroidTable = { zips: { '00601': [-10, 18] }, prefixes: {} };
    expect(placeMarkers([marker('pr', '00601')], outside, flat).unplaced).toHaveLength(1);
  });
});

describe('clusterMarkers', () => {
  const at = (key: string, x: number, y: number) => ({ ...marker(key, '02116'), x, y, exact: true });

  it('draws items at one place, or close enough to overlap, as one cluster with their count', () => {
    const { points, clusters } = clusterMarkers([
      at('a', 100, 100),
      at('b', 100, 100),
      at('c', 105, 103),
      at('far', 400, 300),
    ]);
    expect(points.map((p) => p.key)).toEqual(['far']);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.markers.map((m) => m.key)).toEqual(['a', 'b', 'c']);
    // At its members' centre, in the map's own units.
    expect(clusters[0]?.x).toBeCloseTo(101.67, 1);
    expect(clusters[0]?.y).toBeCloseTo(101, 1);
  });

  it('keeps points apart that do not overlap, and each point once', () => {
    const placed = [at('a', 100, 100), at('b', 130, 100), at('c', 100, 130), at('d', 900, 500)];
    const { points, clusters } = clusterMarkers(placed);
    expect(clusters).toEqual([]);
    expect(points.map((p) => p.key)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('counts many reports in one city as one cluster: every item in exactly one circle', () => {
    const city = Array.from({ length: 40 }, (_, i) => at(`r${i}`, 300 + (i % 5), 200 + Math.floor(i / 5)));
    const { points, clusters } = clusterMarkers([...city, at('alone', 700, 400)]);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.markers).toHaveLength(40);
    expect(points.map((p) => p.key)).toEqual(['alone']);
  });
});

describe('the shipped table and geometry', () => {
  it('places every ZIP code of the sample data set exactly, inside the drawn map', () => {
    const markers = sample.map((analysis) => marker(analysis.zipCode, analysis.zipCode));
    const { placed, unplaced } = placeMarkers(markers, centroidTable, project);
    expect(unplaced).toEqual([]);
    expect(placed).toHaveLength(sample.length);
    for (const point of placed) {
      expect(point.exact).toBe(true);
      expect(point.x).toBeGreaterThan(0);
      expect(point.x).toBeLessThan(WIDTH);
      expect(point.y).toBeGreaterThan(0);
      expect(point.y).toBeLessThan(HEIGHT);
    }
  });

  it('puts known places where they belong: Boston east of Los Angeles, Anchorage and Honolulu on the map', () => {
    const at = (zip: string) => {
      const centroid = centroidOf(zip, centroidTable);
      return centroid ? project([centroid.lngLat[0], centroid.lngLat[1]]) : null;
    };
    const boston = at('02116');
    const beverlyHills = at('90210');
    expect(boston?.[0]).toBeGreaterThan(beverlyHills?.[0] ?? Number.POSITIVE_INFINITY);
    // Outside the sample: placed by their region, still inside the map (geoAlbersUsa's insets).
    expect(at('99501')).not.toBeNull();
    expect(at('96813')).not.toBeNull();
    // Puerto Rico is outside geoAlbersUsa: not drawn rather than drawn in the sea.
    expect(at('00601')).toBeNull();
  });

  it('draws the 50 states and the District of Columbia', () => {
    expect(statePaths.length).toBeGreaterThanOrEqual(51);
    expect(statePaths.map((state) => state.name)).toEqual(expect.arrayContaining(['Alaska', 'Hawaii', 'Texas']));
    for (const state of statePaths) expect(state.d).toMatch(/^M/);
  });
});
