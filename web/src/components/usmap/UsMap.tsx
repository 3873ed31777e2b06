import { useId, useMemo } from 'react';
import { type MarkerCluster, clusterMarkers } from './clusters';
import { HEIGHT, WIDTH, borderPath, centroidTable, project, statePaths } from './geometry';
import { placeMarkers } from './placement';
import type { MapMarker, UsMapProps } from './types';
import './usMap.css';

/** Radius of a point, in the 975-pixel-wide map's own units (the svg scales with the page). */
const POINT_RADIUS = 5.5;

/** A cluster's circle grows with its count, slowly: 2 items and 200 both stay readable. */
const clusterRadius = (count: number) => POINT_RADIUS + 3 + 2.5 * Math.log2(count);

/** What a cluster is called: its count and the first few of its items, in the list's order. */
function clusterLabel(cluster: MarkerCluster): string {
  const names = cluster.markers.slice(0, 3).map((marker) => marker.label);
  const more = cluster.markers.length - names.length;
  return `${cluster.markers.length} here: ${names.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** One colour when all its items share it (one tier, one kind), else the map's neutral. */
function clusterColour(markers: readonly MapMarker[]): string {
  const first = markers[0]?.colour;
  return first && markers.every((marker) => marker.colour === first) ? first : '#475569';
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/**
 * What the map cannot show exactly, said once and plainly under it: how many sit near their
 * ZIP code rather than on it, and how many are in the list only.
 */
function placementNote(approximate: number, unplaced: number): { near: string | null; missing: string | null } {
  return {
    near:
      approximate > 0
        ? `${approximate} ${plural(approximate, 'is', 'are')} shown near ${plural(approximate, 'its', 'their')} ZIP code (dashed outline): we know its area but not its exact spot.`
        : null,
    missing:
      unplaced > 0
        ? `${unplaced} from the list ${plural(unplaced, 'is', 'are')} not on the map, as ${plural(unplaced, 'it has', 'they have')} no ZIP code we can place.`
        : null,
  };
}

function openPoint(target: EventTarget, onOpen: (key: string) => void) {
  const key = target instanceof Element ? target.closest('[data-key]')?.getAttribute('data-key') : null;
  if (key) onOpen(key);
}

/**
 * The U.S. map of /zip and /properties (issue 25): the states, and one point per item of the
 * list shown beside it. Loaded in a chunk of its own (MapPanel), with its geometry, the first
 * time someone asks for the map. Points are not in the tab order: the list beside the map holds
 * the same items and links, so keyboard and screen-reader users keep the list; the points still
 * carry a title and a label for a pointer's hover and for a screen reader that walks the svg.
 */
export default function UsMap({ title, markers, legendTitle, legend, placement, onOpen }: UsMapProps) {
  const titleId = useId();
  const { placed, unplaced } = useMemo(() => placeMarkers(markers, centroidTable, project), [markers]);
  // Many items in one city would draw one on the other: those closer than a point's size are one circle with their count.
  const { points, clusters } = useMemo(() => clusterMarkers(placed), [placed]);
  const note = placementNote(placed.filter((point) => !point.exact).length, unplaced.length);

  return (
    <figure className="us-map" data-testid="us-map">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-labelledby={titleId} className="us-map-svg" data-testid="us-map-svg">
        <title id={titleId}>{title}</title>
        <g className="us-map-states">
          {statePaths.map((state) => (
            <path key={state.name} d={state.d} />
          ))}
          <path className="us-map-borders" d={borderPath} />
        </g>
        {/* One listener for every point: the click names its point by data-key. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the list beside the map opens the same items from the keyboard. */}
        <g className="us-map-points" onClick={onOpen ? (event) => openPoint(event.target, onOpen) : undefined}>
          {points.map((point) => (
            // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: an svg circle is not interactive; role img makes its label a point's name.
            <circle
              key={point.key}
              cx={point.x}
              cy={point.y}
              r={POINT_RADIUS}
              fill={point.colour}
              className={point.exact ? 'us-map-point' : 'us-map-point us-map-point-approximate'}
              role="img"
              aria-label={point.label}
              data-testid="map-point"
              data-key={point.key}
              data-zip={point.zipCode}
            >
              <title>{point.label}</title>
            </circle>
          ))}
          {clusters.map((cluster) => (
            // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: as the points: role img names the group.
            <g
              key={cluster.key}
              className="us-map-cluster"
              role="img"
              aria-label={clusterLabel(cluster)}
              data-testid="map-cluster"
              data-count={cluster.markers.length}
              data-zips={cluster.markers.map((marker) => marker.zipCode).join(' ')}
            >
              <title>{clusterLabel(cluster)}</title>
              <circle
                cx={cluster.x}
                cy={cluster.y}
                r={clusterRadius(cluster.markers.length)}
                fill={clusterColour(cluster.markers)}
              />
              <text x={cluster.x} y={cluster.y}>
                {cluster.markers.length}
              </text>
            </g>
          ))}
        </g>
      </svg>
      <figcaption className="us-map-caption">
        <div className="us-map-legend" data-testid="map-legend">
          <p className="us-map-legend-title">{legendTitle}</p>
          <ul>
            {legend.map((entry) => (
              <li key={entry.label}>
                <span className="us-map-swatch" style={{ background: entry.colour }} aria-hidden="true" />
                {entry.label}
              </li>
            ))}
          </ul>
        </div>
        <p className="us-map-note" data-testid="map-note">
          {placement}
          {clusters.length > 0 && ' A circle with a number stands for that many close together.'}
          {note.near && ` ${note.near}`}
          {note.missing && <span data-testid="map-unplaced">{` ${note.missing}`}</span>}
        </p>
      </figcaption>
    </figure>
  );
}
