import { useCallback, useEffect, useState } from 'react';
import { Alert } from '../../../components/Alert';

export const ACTION_COMPLETED = 'Action completed successfully!';

/** Spec sections 4 and 9: the banner hides after 3 s for a status change and 5 s for an upload. */
export const BANNER_HIDE_MS = { status: 3_000, upload: 5_000 } as const;

/** A success message that hides itself; showing it again restarts the clock. */
export function useSuccessBanner() {
  const [shown, setShown] = useState<{ key: number; ms: number } | null>(null);

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), shown.ms);
    return () => clearTimeout(timer);
  }, [shown]);

  const show = useCallback((ms: number) => setShown({ key: Date.now(), ms }), []);
  const hide = useCallback(() => setShown(null), []);
  const banner = shown ? (
    <Alert kind="success" testId="action-success">
      {ACTION_COMPLETED}
    </Alert>
  ) : null;
  return { banner, show, hide };
}
