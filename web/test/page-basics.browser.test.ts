import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, useBrowser } from '../../test/support/browser.js';
import { ROUTES, type Site, buildSite, visit } from './siteRoutes.js';

// Issue 37, items 4 and 8: on every page the keyboard first meets a skip link to the content,
// and every public page names itself in its own title and description (what search results show).

const readMeta = (page: import('playwright-core').Page) =>
  page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
  }));

describe('what every page has', () => {
  const browser = useBrowser();
  let site: Site;
  beforeAll(async () => {
    site = await buildSite(browser());
  });

  // First loads only: a dialog, a tab or a view of a page ("/zip, map shown") is still that page.
  const firstLoads = ROUTES.filter((route) => !route.prepare && !route.name.includes(','));

  it.each(firstLoads)(
    '$name: the first Tab reaches "Skip to content", which moves focus to the content',
    async (route) => {
      const page = await site.open(route.who, DESKTOP);
      try {
        await visit(page, route, site.data);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press('Tab');
        const first = await page.evaluate(() => ({
          text: document.activeElement?.textContent?.trim(),
          visible: (() => {
            const box = document.activeElement?.getBoundingClientRect();
            return box !== undefined && box.bottom > 0 && box.top >= 0 && box.width > 0;
          })(),
        }));
        expect(first).toEqual({ text: 'Skip to content', visible: true });
        await page.keyboard.press('Enter');
        await expect
          .poll(() =>
            page.evaluate(() => document.activeElement?.closest('main')?.id ?? document.activeElement?.tagName),
          )
          .toBe('main');
      } finally {
        await page.context().close();
      }
    },
  );

  it('gives every public page a title and a description of its own', async () => {
    const seen = new Map<string, string>();
    const descriptions = new Map<string, string>();
    const problems: string[] = [];
    for (const route of firstLoads.filter((r) => r.who === 'public')) {
      const page = await site.open('public', DESKTOP);
      try {
        await visit(page, route, site.data);
        const { title, description } = await readMeta(page);
        if (!title.includes('HomeReport')) problems.push(`${route.name}: title "${title}" does not name the site`);
        if (description.length < 40) problems.push(`${route.name}: description "${description}" is too short`);
        const sameTitle = seen.get(title);
        if (sameTitle) problems.push(`${route.name}: same title as ${sameTitle} ("${title}")`);
        seen.set(title, route.name);
        // The two states of one page (a shared report and an unknown link, a ZIP and an unknown
        // one) may share a description; different pages may not.
        const samePage = (a: string, b: string) => a.split(' ')[0]?.split('/')[1] === b.split(' ')[0]?.split('/')[1];
        const sameDescription = descriptions.get(description);
        if (sameDescription && !samePage(sameDescription, route.name)) {
          problems.push(`${route.name}: same description as ${sameDescription}`);
        }
        descriptions.set(description, route.name);
      } finally {
        await page.context().close();
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
