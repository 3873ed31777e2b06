import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, newPage, useBrowser } from '../../test/support/browser.js';
import { ROUTES, type Site, buildSite, visit } from './siteRoutes.js';

// Issue 38: the pages' policy allows only what the built app uses (gateway security-headers.ts,
// decision 007). Whatever the browser refused on a screen shows as a console error naming the
// Content Security Policy: none may appear on any screen, in any state the other suites check.

/** Collects the CSP refusals the page reports from now on. */
function cspRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

describe('the page CSP blocks nothing the app itself uses', () => {
  const browser = useBrowser();
  let site: Site;
  beforeAll(async () => {
    site = await buildSite(browser());
  });

  it.each(ROUTES)('$name: no CSP refusal in the console', async (route) => {
    const page = await site.open(route.who, DESKTOP);
    try {
      const refused = cspRefusals(page);
      await visit(page, route, site.data);
      // Charts and the map draw after their data: let the page settle before judging.
      await page.waitForLoadState('networkidle');
      expect(refused, refused.join('\n')).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('the API reference page: no CSP refusal either', async () => {
    const page = await newPage(browser());
    try {
      const refused = cspRefusals(page);
      await page.goto('/api/docs');
      await page.waitForSelector('.swagger-ui .opblock', { timeout: 30_000 });
      expect(refused, refused.join('\n')).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
