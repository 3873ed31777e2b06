import { useEffect } from 'react';

export const SITE_TITLE = 'HomeReport';

/** Sets the tab title to "<page> · HomeReport"; a null page title shows the bare product title. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_TITLE}` : `${SITE_TITLE} · Property Assessment Reports for U.S. Homes`;
  }, [title]);
}
