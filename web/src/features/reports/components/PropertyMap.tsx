import { useMemo, useRef } from 'react';
import { MapPanel } from '../../../components/usmap/MapPanel';
import { useNearViewport } from '../../../hooks/useNearViewport';

const COLOUR = '#2563eb';

/** The property's place on the U.S. map (at its ZIP code), in a card of its own. */
export function PropertyMap({ id, address, zipCode }: { id: string; address: string; zipCode: string }) {
  const markers = useMemo(() => [{ key: id, zipCode, label: address, colour: COLOUR }], [id, zipCode, address]);
  // Below the report on a phone: the map's code loads when it is about to be seen.
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref);
  return (
    <section ref={ref} className="card report-map" aria-labelledby="report-map-title" data-testid="report-map">
      <h2 id="report-map-title" className="report-block-title">
        Where it is
      </h2>
      {near ? (
        <MapPanel
          title={`Map of the United States showing ${address}`}
          markers={markers}
          legendTitle="On the map"
          legend={[{ colour: COLOUR, label: 'This property' }]}
          placement={`Placed by its ZIP code, ${zipCode}.`}
        />
      ) : (
        <div className="report-map-placeholder" />
      )}
    </section>
  );
}
