import Supercluster from 'supercluster';
import type { PlacedMarker } from './placement';

/**
 * Points closer than this (in the map's own 975-unit coordinates) draw as one circle with their
 * count: a point's radius is 5.5 units, so two closer than about two radii would overlap.
 */
export const CLUSTER_RADIUS = 12;

/** Several markers drawn as one circle: where, how many, and which. */
export interface MarkerCluster {
  key: string;
  x: number;
  y: number;
  markers: PlacedMarker[];
}

export interface Clustered {
  /** Markers with no neighbour within the radius: drawn as their own point. */
  points: PlacedMarker[];
  clusters: MarkerCluster[];
}

/**
 * Supercluster (Mapbox's point clustering) works in Web Mercator from longitude and latitude. The
 * map is already projected (Albers USA, Alaska and Hawaii moved in), so each point's map position
 * is handed over as the longitude and latitude whose Mercator position, on a world `WORLD` units
 * wide at zoom 0, is that very position: distances are then the map's own, insets included.
 */
const WORLD = 1024;
const toLng = (x: number) => (x / WORLD) * 360 - 180;
const toLat = (y: number) => (360 * Math.atan(Math.exp(((180 - (y / WORLD) * 360) * Math.PI) / 180))) / Math.PI - 90;
const fromLng = (lng: number) => ((lng + 180) / 360) * WORLD;
const fromLat = (lat: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  return (0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI) * WORLD;
};

/** Groups the placed markers that would overlap; each group is drawn at its members' centre. */
export function clusterMarkers(placed: readonly PlacedMarker[], radius = CLUSTER_RADIUS): Clustered {
  if (placed.length < 2) return { points: [...placed], clusters: [] };
  const index = new Supercluster<{ at: number }>({ radius, extent: WORLD, minZoom: 0, maxZoom: 0, minPoints: 2 });
  index.load(
    placed.map((marker, at) => ({
      type: 'Feature' as const,
      properties: { at },
      geometry: { type: 'Point' as const, coordinates: [toLng(marker.x), toLat(marker.y)] },
    })),
  );
  const points: PlacedMarker[] = [];
  const clusters: MarkerCluster[] = [];
  for (const feature of index.getClusters([-180, -85.06, 180, 85.06], 0)) {
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const properties = feature.properties as { at?: number; cluster?: boolean; cluster_id?: number };
    if (properties.cluster && properties.cluster_id !== undefined) {
      const members = index
        .getLeaves(properties.cluster_id, Number.POSITIVE_INFINITY)
        .map((leaf) => placed[(leaf.properties as { at: number }).at] as PlacedMarker)
        // In the list's order, so the cluster names its items as the list does.
        .sort((a, b) => placed.indexOf(a) - placed.indexOf(b));
      clusters.push({ key: members.map((m) => m.key).join('|'), x: fromLng(lng), y: fromLat(lat), markers: members });
    } else if (properties.at !== undefined) {
      points.push(placed[properties.at] as PlacedMarker);
    }
  }
  // Points in the list's order, as before clustering.
  points.sort((a, b) => placed.indexOf(a) - placed.indexOf(b));
  return { points, clusters };
}
