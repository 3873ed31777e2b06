import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The `token` of an emailed link (`/verify-email?token=…`, `/reset-password?token=…`), read once
 * and then removed from the address bar, so it does not stay in the history, a bookmark, a
 * screenshot or a Referer.
 */
export function useTokenFromAddress(): string {
  const [params, setParams] = useSearchParams();
  const [token] = useState(() => params.get('token') ?? '');
  useEffect(() => {
    if (!params.has('token')) return;
    const rest = new URLSearchParams(params);
    rest.delete('token');
    setParams(rest, { replace: true });
  }, [params, setParams]);
  return token;
}
