import { type ZipListItem, indexZipList, zipListPage } from '@homereport/contracts';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildAnalysis,
  freshZip,
  importAnalyses,
  signedInUser,
} from '../../services/zipcodes/test/support/zipcodes.js';
import { api } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { manyZipItems, zipListAnswer } from '../../test/support/zip-list.js';

describe('ZIP code analyses in a browser', () => {
  const browser = useBrowser();
  let userToken: string;
  beforeAll(async () => {
    userToken = await signedInUser();
  });

  /** A page whose browser already holds a signed-in user's session token. */
  async function signedInPage(): Promise<Page> {
    const page = await newPage(browser());
    await page.addInitScript((token) => localStorage.setItem('token', token), userToken);
    return page;
  }

  const cards = (page: Page) => page.getByTestId('zip-card');
  /** GET /api/zipcodes with or without a query string (the page asks for pages: ?limit=24&q=...). */
  const listUrl = (url: URL) => url.pathname === '/api/zipcodes';
  /** Until the answer for what is typed and chosen now is on screen (the previous one stays while it loads). */
  const settled = (page: Page, showing: number) =>
    page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="zip-showing"]')?.textContent === String(n) &&
        document.querySelector('[data-testid="zip-results"][aria-busy="true"]') === null,
      showing,
    );

  it('lists the analyses with counters, search, tier filter, grid and list views, and an empty state', async () => {
    const page = await newPage(browser());
    await page.goto('/zip');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('ZIP Code Analysis');
    await cards(page).first().waitFor();

    const total = Number(await page.getByTestId('zip-total').textContent());
    const { zipCodes } = (await api<{ zipCodes: ZipListItem[] }>('GET', '/api/zipcodes')).body;
    expect(total).toBe(zipCodes.length);
    const tier1 = zipCodes.filter((z) => z.tier.startsWith('TIER 1')).length;
    await expect(page.getByTestId('zip-premium').textContent()).resolves.toBe(String(tier1));
    await expect(page.getByTestId('zip-showing').textContent()).resolves.toBe(String(total));
    // Navigation of the screen.
    for (const name of ['Property Reports', 'Sign In', 'Get Started']) {
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).count()).resolves.toBe(1);
    }
    await expect(
      page
        .getByTestId('zip-cta')
        .getByRole('link', { name: /Request Coverage Now/ })
        .getAttribute('href'),
    ).resolves.toBe('/request');
    await screenshot(page, 'zip-list-grid');

    // Search: city, case-insensitive.
    await page.getByTestId('zip-search').fill('CLEVELAND');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="zip-card"]').length === 1);
    const card = cards(page).first();
    await expect(card.getAttribute('data-zip')).resolves.toBe('44113');
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('Cleveland, OH');
    expect(text).toContain('Ohio City / Tremont');
    expect(text).toContain('TIER 3');
    expect(text).not.toContain('Emerging'); // the badge is the text before the colon
    expect(text).toMatch(/Median Price\$\d{1,3}(,\d{3})+(?!\.)/);
    expect(text).toMatch(/Appreciation-?\d+\.\d%/);
    expect(text).toMatch(/Risk Level(Low|Low-Medium|Medium|Medium-High|High)/);
    expect(text).toContain('Sample analysis');
    expect(text).toContain('View Full Analysis');
    await expect(page.getByTestId('zip-showing').textContent()).resolves.toBe('1');
    await screenshot(page, 'zip-list-search');

    // ZIP substring plus the tier filter: the tier applies at once, the search after a pause in
    // typing, so the answer to wait for is the one with both.
    await page.getByTestId('zip-search').fill('021');
    await page.getByTestId('zip-tier-filter').selectOption({ label: 'Tier 1 - Ultra-Premium' });
    const expected = zipCodes.filter((z) => z.zipCode.includes('021') && z.tier.includes('TIER 1')).length;
    await page.waitForFunction((n) => {
      const now = [...document.querySelectorAll('[data-testid="zip-card"]')];
      return now.length === n && now.every((c) => c.textContent?.includes('TIER 1') && c.textContent.includes('021'));
    }, expected);
    await settled(page, expected);

    // List view.
    await page.getByTestId('zip-search').fill('');
    await page.getByTestId('zip-tier-filter').selectOption({ label: 'All Tiers' });
    await page.getByTestId('zip-view-list').click();
    await page.locator('.zip-list').waitFor();
    await screenshot(page, 'zip-list-rows');

    // Empty state.
    await page.getByTestId('zip-search').fill('no such place anywhere');
    await page.getByTestId('zip-empty').waitFor();
    await expect(page.getByTestId('zip-empty').textContent()).resolves.toMatch(/No ZIP Codes Found.*adjust/);
    await page.context().close();
  });

  it('signed out, View Full Analysis opens the unlock modal, which closes by close button, Escape, overlay and its links', async () => {
    const page = await newPage(browser());
    await page.goto('/zip');
    await page.getByTestId('zip-search').fill('90210');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="zip-card"]').length === 1);
    const modal = page.getByTestId('zip-unlock-modal');
    const openModal = async () => {
      await cards(page)
        .first()
        .getByRole('button', { name: /View Full Analysis/ })
        .click();
      await modal.waitFor({ state: 'visible' });
    };

    await openModal();
    expect(new URL(page.url()).pathname).toBe('/zip');
    await expect(modal.getByRole('heading', { name: 'Unlock ZIP Code Analysis' }).count()).resolves.toBe(1);
    await expect(page.getByTestId('zip-unlock-code').textContent()).resolves.toBe('ZIP Code 90210');
    await expect(page.getByTestId('zip-unlock-benefits').locator('li').count()).resolves.toBe(4);
    const box = page.getByTestId('zip-get-started');
    await expect(box.getByRole('heading', { name: 'Get Started Today' }).count()).resolves.toBe(1);
    await expect(box.locator('li').allTextContents()).resolves.toEqual([
      '10 free report credits per month',
      'Access to all ZIP code analyses',
      'Track request history',
      'Email notifications',
    ]);
    await expect(page.getByTestId('zip-unlock-register').textContent()).resolves.toBe('Create Free Account');
    await expect(page.getByTestId('zip-unlock-register').getAttribute('href')).resolves.toBe('/register');
    await expect(page.getByTestId('zip-unlock-login').textContent()).resolves.toBe('Sign In to Existing Account');
    await expect(page.getByTestId('zip-unlock-login').getAttribute('href')).resolves.toBe('/login');
    await expect(page.getByTestId('zip-unlock-signin-link').getAttribute('href')).resolves.toBe('/login');
    await screenshot(page, 'zip-unlock-modal');

    await modal.getByTestId('modal-close').click();
    await modal.waitFor({ state: 'detached' });

    await openModal();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await openModal();
    await page.mouse.click(5, 5); // the overlay, outside the dialog's box
    await modal.waitFor({ state: 'detached' });

    await openModal();
    await page.getByTestId('zip-unlock-signin-link').click();
    await page.waitForURL('**/login');
    await expect(modal.count()).resolves.toBe(0);

    await page.goto('/zip');
    await page.getByTestId('zip-search').fill('90210');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="zip-card"]').length === 1);
    await openModal();
    await page.getByTestId('zip-unlock-register').click();
    await page.waitForURL('**/register');
    await expect(modal.count()).resolves.toBe(0);
    await page.context().close();
  });

  it('signed in, View Full Analysis opens the detail page with every section and its charts', async () => {
    const page = await signedInPage();
    await page.goto('/zip');
    await page.getByTestId('zip-search').fill('ohio city');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="zip-card"]').length === 1);
    await cards(page)
      .first()
      .getByRole('button', { name: /View Full Analysis/ })
      .click();
    await page.waitForURL('**/zip/44113');
    await page.getByTestId('zip-summary').waitFor();

    await expect(page.getByTestId('zip-detail-code').textContent()).resolves.toBe('ZIP Code 44113');
    await expect(page.getByTestId('zip-detail-tier').textContent()).resolves.toBe('TIER 3');
    await expect(page.getByTestId('zip-detail-place').textContent()).resolves.toBe('Cleveland, OH');
    const header = (await page.locator('.zip-hero').textContent()) ?? '';
    for (const part of ['Report Date', 'June 30, 2025', 'Neighborhood', 'Ohio City / Tremont', 'Investment Profile']) {
      expect(header).toContain(part);
    }
    await page.getByTestId('zip-sample-banner').waitFor();

    // Every section, in the order of the spec.
    const order = await page
      .locator('.zip-section .zip-section-title')
      .allTextContents()
      .then((titles) => titles.map((t) => t.trim()));
    expect(order).toEqual([
      'Executive Summary',
      'Market Fundamentals',
      'Demographics',
      'Price Trends',
      'Investment Analysis',
      'Market Outlook',
      'Actionable Recommendations',
      // Then the ZIP code's covered properties (issue 40).
      'Property Reports in 44113',
    ]);
    const section = async (id: string) => (await page.getByTestId(id).textContent()) ?? '';
    for (const label of ['Key Takeaways', 'Investment Thesis', 'Bottom Line', 'Risk Level', 'Confidence']) {
      expect(await section('zip-summary')).toContain(label);
    }
    for (const label of [
      'Median Price',
      'year over year',
      'Annual Appreciation',
      'Price per Sq Ft',
      'Days on Market',
      'Inventory Analysis',
      'Months of Supply',
      'Active Listings',
      'New Listings per Month',
    ]) {
      expect(await section('zip-market')).toContain(label);
    }
    await expect(page.getByTestId('zip-median-price').textContent()).resolves.toMatch(/^\$\d{3},\d{3}$/);
    await expect(page.getByTestId('zip-appreciation').textContent()).resolves.toMatch(/^-?\d+\.\d%$/);
    for (const label of [
      'Population',
      'Median Income',
      "Bachelor's+",
      'Average Commute',
      'Unemployment Rate',
      'Top Industries',
    ]) {
      expect(await section('zip-demographics')).toContain(label);
    }
    await expect(page.getByTestId('zip-industries').locator('li').count()).resolves.toBeGreaterThan(0);
    for (const label of [
      '12-Month Trend',
      'Last 6 Months',
      'Rental Market',
      'Studio',
      '1 Bedroom',
      '2 Bedrooms',
      '3 Bedrooms',
      'Gross Yield',
    ]) {
      expect(await section('zip-trends')).toContain(label);
    }
    await expect(page.getByTestId('zip-last-months').locator('tbody tr').count()).resolves.toBe(6);
    for (const label of ['Best Segments', 'Expected Return', 'Risk Factors']) {
      expect(await section('zip-investment')).toContain(label);
    }
    for (const label of ['Price Movement', 'Confidence', 'Inventory Changes', 'Major Catalysts', 'Headwinds']) {
      expect(await section('zip-outlook')).toContain(label);
    }
    for (const label of ['Immediate Actions', 'Next Steps']) expect(await section('zip-actions')).toContain(label);
    const links = page.getByTestId('zip-bottom-links').getByRole('link');
    await expect(links.allTextContents()).resolves.toEqual([
      ' Browse Other ZIP Codes',
      'View Property Reports',
      'Request Property Assessment',
    ]);

    // The charts: a line through all 12 months, and one bar per bedroom count.
    await page.locator('[data-testid="price-trend-chart"] .recharts-line-curve').waitFor();
    await expect(page.locator('[data-testid="price-trend-chart"] .recharts-line-dot').count()).resolves.toBe(12);
    await page.locator('[data-testid="rent-chart"] .recharts-bar-rectangle').first().waitFor();
    await expect(page.locator('[data-testid="rent-chart"] .recharts-bar-rectangle').count()).resolves.toBe(4);
    await screenshot(page, 'zip-detail');
    await page.context().close();
  });

  it('shows N/A for unknown values and hides the sections an analysis does not have', async () => {
    const zip = freshZip();
    const full = buildAnalysis(zip);
    const sparse = {
      zipCode: zip,
      reportMetadata: { ...full.reportMetadata, investmentProfile: null, sample: undefined },
      executiveSummary: { riskLevel: 'low' },
      marketFundamentals: { medianSalePrice: { value: 410_000, yearOverYearChange: null } },
      demographics: { population: { total: 12_000 } },
    };
    expect((await importAnalyses([sparse])).body.imported).toEqual([zip]);

    const page = await newPage(browser());
    await page.goto(`/zip/${zip}`);
    await page.getByTestId('zip-summary').waitFor();
    await expect(page.getByTestId('zip-median-price').textContent()).resolves.toBe('$410,000');
    expect(await page.getByTestId('zip-market').textContent()).toContain('N/A year over year');
    await expect(page.getByTestId('zip-appreciation').textContent()).resolves.toBe('N/A');
    for (const hidden of ['zip-trends', 'zip-investment', 'zip-outlook', 'zip-actions']) {
      await expect(page.getByTestId(hidden).count()).resolves.toBe(0);
    }
    await expect(page.getByTestId('zip-sample-banner').count()).resolves.toBe(0);
    await screenshot(page, 'zip-detail-sparse');
    await page.context().close();
  });

  it('shows ZIP Code Not Found for a ZIP code we have no analysis of, and for a malformed one', async () => {
    const page = await newPage(browser());
    for (const path of ['/zip/00001', '/zip/abc']) {
      await page.goto(path);
      const problem = page.getByTestId('zip-not-found');
      await problem.waitFor();
      await expect(problem.getByRole('heading').textContent()).resolves.toBe('ZIP Code Not Found');
      await expect(problem.textContent()).resolves.toContain('ZIP code not found in our database');
      await expect(
        problem.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ).resolves.toEqual(['/zip', '/properties']);
    }
    await screenshot(page, 'zip-not-found');
    await page.context().close();
  });

  it('shows the load error with Retry when the list cannot be fetched, and when the detail fails', async () => {
    const page = await newPage(browser());
    await page.route(listUrl, (route) => route.fulfill({ status: 500, body: '{"error":"boom"}' }));
    await page.route('**/api/zipcodes/44113', (route) => route.fulfill({ status: 500, body: '{"error":"boom"}' }));
    await page.goto('/zip');
    await expect(page.getByTestId('zip-error').textContent({ timeout: 20_000 })).resolves.toContain(
      'Failed to load ZIP code data. Please try again later.',
    );
    // No zero stands in for a count nobody read.
    await expect(page.getByTestId('zip-total').textContent()).resolves.toBe('—');
    await expect(page.getByTestId('zip-error-retry').isVisible()).resolves.toBe(true);
    await page.goto('/zip/44113');
    await expect(page.getByTestId('zip-detail-error').textContent({ timeout: 20_000 })).resolves.toContain(
      'Failed to load ZIP code data. Please try again later.',
    );
    await expect(page.getByTestId('zip-detail-error-retry').isVisible()).resolves.toBe(true);
    await page.context().close();
  });

  it('with 5,000 analyses, filters as the user types and renders one page of cards at a time', async () => {
    // The service's own paging over 5,000 items, without storing them in the shared test database
    // where every other test's counts would change.
    const index = indexZipList(manyZipItems(5000));
    const requested: string[] = [];
    const answer = (route: Route) => {
      const url = new URL(route.request().url());
      requested.push(url.search);
      const body = zipListAnswer(index, url);
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    };
    const page = await newPage(browser());
    await page.route(listUrl, answer);
    await page.goto('/zip');
    await page.getByTestId('zip-card').first().waitFor();
    await expect(page.getByTestId('zip-total').textContent()).resolves.toBe('5000');
    await expect(cards(page).count()).resolves.toBe(24);
    await expect(page.getByTestId('zip-pager-status').textContent()).resolves.toBe('Page 1 of 209');
    // The first page asks for 24 cards, never the whole list.
    expect(requested).toEqual(['?limit=24']);

    // Type one key at a time; each shows its own result (how fast: `npm run bench:zip-search`).
    const input = page.getByTestId('zip-search');
    await input.click();
    for (const key of 'Springf') {
      await page.keyboard.type(key);
      const typed = await input.inputValue();
      // Its own answer, not the previous one still on screen (which often shows the same cards).
      await expect
        .poll(() => requested.some((r) => new URLSearchParams(r).get('q') === typed.toLowerCase()), { interval: 10 })
        .toBe(true);
      await settled(page, zipListPage(index, { q: typed }, 24, 0).showing);
      await page.waitForFunction((term) => {
        const cardsNow = [...document.querySelectorAll('[data-testid="zip-card"]')];
        return cardsNow.length > 0 && cardsNow.every((c) => c.textContent?.toLowerCase().includes(term.toLowerCase()));
      }, typed);
    }
    await expect(page.getByTestId('zip-showing').textContent()).resolves.toBe('100');
    await expect(cards(page).count()).resolves.toBe(24);

    await page.getByTestId('zip-pager').getByRole('button', { name: /Next/ }).click();
    // The router moves in a transition: the status follows a render later, not with the click.
    await expect.poll(() => page.getByTestId('zip-pager-status').textContent()).toBe('Page 2 of 5');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="zip-card"]')?.getAttribute('data-zip') === '11200',
    );
    await expect(cards(page).count()).resolves.toBe(24);
    expect(requested.at(-1)).toBe('?limit=24&q=springf&offset=24');
    await screenshot(page, 'zip-list-5000');
    await page.context().close();
  });
});
