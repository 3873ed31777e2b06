import { describe, expect, it } from 'vitest';
import sample from '../../../../services/zipcodes/sample/analyses.json';
import { HEIGHT, WIDTH, centroidTable, project, statePaths } from './geometry';
import { type CentroidTable, SPREAD_RADIUS, centroidOf, placeMarkers } from './placement';
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

  it('sets items that share a place in a ring around it, so every one stays visible', () => {
    const { placed } = placeMarkers([marker('a', '02116'), marker('b', '02116'), marker('c', '02116')], table, flat);
    expect(placed).toHaveLength(3);
    const spots = new Set(placed.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`));
    expect(spots.size).toBe(3);
    for (const point of placed) {
      expect(Math.hypot(point.x + 71.08, point.y - 42.35)).toBeCloseTo(SPREAD_RADIUS);
    }
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
