import { geoAlbersUsa, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'us-atlas/states-albers-10m.json';
import type { CentroidTable } from './placement';
import centroids from './zipCentroids.json';

/**
 * The shipped geometry, loaded only with the map's own chunk: the Census Bureau's state
 * boundaries (2017 cartographic files, by us-atlas, ISC licence), already projected with
 * geoAlbersUsa to a 975×610 viewport (Alaska and Hawaii moved in beside the lower 48). Points are
 * projected with the same projection, so they land where the states are drawn.
 */
export const WIDTH = 975;
export const HEIGHT = 610;

const topology = atlas as unknown as Topology<{ states: GeometryCollection; nation: GeometryCollection }>;
const projection = geoAlbersUsa().scale(1300).translate([487.5, 305]);
const draw = geoPath();

/** Each state as an svg path, with its name (what its title says). */
export const statePaths: { name: string; d: string }[] = feature(topology, topology.objects.states).features.map(
  (state) => ({ name: String((state.properties as { name?: string } | null)?.name ?? state.id), d: draw(state) ?? '' }),
);

/** Borders between states, drawn once (the shared edge of two states is one line). */
export const borderPath = draw(mesh(topology, topology.objects.states, (a, b) => a !== b)) ?? '';

export const project = (lngLat: [number, number]) => projection(lngLat);

export const centroidTable = centroids as unknown as CentroidTable;
