import { type ZipListItem, indexZipList, zipListPage } from '@homereport/contracts';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { signedInPage, verifiedUser } from './fixtures.js';

/** /zip keeps its search, tier and page in the address, so Back and bookmarks return to them. */
describe('the /zip address holds the search, tier and page', () => {
  const browser = useBrowser();
  let token: string;
  beforeAll(async () => {
    token = (await verifiedUser('zipaddress')).token;
  });

  const search = (page: Page) => new URL(page.url()).searchParams;
  const cardZips = (page: Page) =>
    page.locator('[data-testid="zip-card"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-zip')));
  const onlyCard = (page: Page, zip: string) =>
    page.waitForFunction((code) => {
      const cards = [...document.querySelectorAll('[data-testid="zip-card"]')];
      return (
        cards.length === 1 &&
        cards[0]?.getAttribute('data-zip') === code &&
        document.querySelector('[data-testid="zip-results"][aria-busy="true"]') === null
      );
    }, zip);

  it('typing and choosing a tier write the address; Back from a ZIP code returns to them', async () => {
    const page = await signedInPage(browser(), token);
    await page.goto('/help');
    await page.goto('/zip');
    await page.getByTestId('zip-card').first().waitFor();

    await page.getByTestId('zip-search').fill('Cleveland');
    await page.waitForURL((url) => url.searchParams.get('q') === 'Cleveland');
    await page.getByTestId('zip-tier-filter').selectOption('3');
    await page.waitForURL((url) => url.searchParams.get('tier') === '3');
    await onlyCard(page, '44113');
    expect(Object.fromEntries(search(page))).toEqual({ q: 'Cleveland', tier: '3' });

    await page
      .getByTestId('zip-card')
      .first()
      .getByRole('button', { name: /View Full Analysis/ })
      .click();
    await page.waitForURL('**/zip/44113');
    await page.getByTestId('zip-summary').waitFor();

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/zip');
    expect(Object.fromEntries(search(page))).toEqual({ q: 'Cleveland', tier: '3' });
    await expect(page.getByTestId('zip-search').inputValue()).resolves.toBe('Cleveland');
    await expect(page.getByTestId('zip-tier-filter').inputValue()).resolves.toBe('3');
    await onlyCard(page, '44113');
    await screenshot(page, 'zip-list-back-from-detail');

    // A tier is a step of its own: Back undoes it, and the box and the list follow the address.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/zip' && !url.searchParams.has('tier'));
    await expect(page.getByTestId('zip-tier-filter').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('zip-search').inputValue()).resolves.toBe('Cleveland');
    await onlyCard(page, '44113');

    // Typing replaced the entry instead of adding one per word: one more Back leaves /zip.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/help');
    await page.context().close();
  });

  it('a bookmarked address opens with its search and tier applied', async () => {
    const page = await newPage(browser());
    await page.goto('/zip?q=ohio%20city&tier=3');
    await onlyCard(page, '44113');
    await expect(page.getByTestId('zip-search').inputValue()).resolves.toBe('ohio city');
    await expect(page.getByTestId('zip-tier-filter').inputValue()).resolves.toBe('3');
    await expect(page.getByTestId('zip-showing').textContent()).resolves.toBe('1');

    // The same search under another tier matches nothing: the filter applies, it is not ignored.
    await page.goto('/zip?q=ohio%20city&tier=1');
    await page.getByTestId('zip-empty').waitFor();
    await page.context().close();
  });

  it('the page number is in the address too, and Back steps through the pages', async () => {
    const many: ZipListItem[] = Array.from({ length: 100 }, (_, i) => ({
      zipCode: String(20000 + i),
      tier: 'TIER 2: High-Growth',
      location: { city: `Town ${i}`, state: 'IL', neighborhood: `District ${i}` },
      marketFundamentals: { medianSalePrice: { value: 300_000 + i }, annualAppreciationRate: { oneYear: 0.03 } },
      executiveSummary: { riskLevel: 'medium' },
      investmentProfile: 'Balanced',
      sample: true,
    }));
    // A list of its own, answered with the service's paging, so no other test's data changes it.
    const index = indexZipList(many);
    const answer = (route: Route) => {
      const url = new URL(route.request().url());
      const body = zipListPage(
        index,
        { q: url.searchParams.get('q') ?? undefined },
        Number(url.searchParams.get('limit') ?? 24),
        Number(url.searchParams.get('offset') ?? 0),
      );
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    };
    const page = await newPage(browser());
    await page.route((url) => url.pathname === '/api/zipcodes', answer);
    const status = page.getByTestId('zip-pager-status');

    await page.goto('/zip?page=2');
    await expect(status.textContent()).resolves.toBe('Page 2 of 5');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="zip-card"]')?.getAttribute('data-zip') === '20024',
    );

    await page.getByTestId('zip-pager').getByRole('button', { name: /Next/ }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '3');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="zip-card"]')?.getAttribute('data-zip') === '20048',
    );

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="zip-card"]')?.getAttribute('data-zip') === '20024',
    );
    await expect(status.textContent()).resolves.toBe('Page 2 of 5');

    // A new search starts again at page 1.
    await page.getByTestId('zip-search').fill('town 9');
    await page.waitForURL((url) => url.searchParams.get('q') === 'town 9' && !url.searchParams.has('page'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="zip-card"]').length === 11);
    expect(await cardZips(page)).toContain('20009');
    await page.context().close();
  });
});
