import { useId, useMemo } from 'react';
import { HEIGHT, WIDTH, borderPath, centroidTable, project, statePaths } from './geometry';
import { placeMarkers } from './placement';
import type { UsMapProps } from './types';
import './usMap.css';

/** Radius of a point, in the 975-pixel-wide map's own units (the svg scales with the page). */
const POINT_RADIUS = 5.5;

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
  const approximate = placed.filter((point) => !point.exact).length;

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
          {placed.map((point) => (
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
          {approximate > 0 &&
            ` ${approximate} shown at the centre of their ZIP code's region (dashed outline): their own ZIP code is not in the map's table.`}
          {unplaced.length > 0 && (
            <span data-testid="map-unplaced">
              {` ${unplaced.length} not on the map (${unplaced
                .slice(0, 5)
                .map((marker) => marker.zipCode || 'no ZIP code')
                .join(', ')}${unplaced.length > 5 ? ', ...' : ''}): no known place.`}
            </span>
          )}
        </p>
      </figcaption>
    </figure>
  );
}
