import { useEffect } from 'react';

export const SITE_TITLE = 'HomeReport';
/** The shell's own description (web/index.html), for pages that have none of their own. */
export const SITE_DESCRIPTION =
  'HomeReport: on-demand assessment reports for U.S. residential properties, combining AI-powered analysis with human expertise.';

/**
 * Sets the tab title to "<page> · HomeReport" (a null page title shows the bare product title)
 * and the page's meta description, which search results show under the title: every public
 * page gives its own.
 */
export function useDocumentTitle(title: string | null, description: string = SITE_DESCRIPTION): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_TITLE}` : `${SITE_TITLE} · Property Assessment Reports for U.S. Homes`;
  }, [title]);
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [description]);
}
