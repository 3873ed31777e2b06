import { Suspense, lazy } from 'react';
import { Alert } from '../Alert';
import { ErrorBoundary } from '../ErrorBoundary';
import { Spinner } from '../Spinner';
import type { UsMapProps } from './types';

/**
 * The map, fetched the first time it is shown: d3-geo, the state geometry and the ZIP code
 * centroids (some 100 kB) stay out of the page's own chunk, so a visitor who never opens the
 * map never downloads them.
 */
const UsMap = lazy(() => import('./UsMap'));

export function MapPanel(props: UsMapProps) {
  return (
    <ErrorBoundary
      fallback={
        <Alert kind="error" testId="map-error">
          The map could not be loaded. The list below shows the same results.
        </Alert>
      }
    >
      <Suspense fallback={<Spinner label="Loading the map" />}>
        <UsMap {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
