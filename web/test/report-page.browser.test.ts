import type { ReportSummary, ZipDetailReply } from '@homereport/contracts';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeSupport } from '../../services/requests/test/support.js';
import { api } from '../../test/support/api.js';
import { screenshot, useBrowser } from '../../test/support/browser.js';
import { axeViolations, isSerious, violationLine } from './axe.js';
import { coverViaApi, createRequestViaApi, newAdmin, signedInPage, verifiedUser } from './fixtures.js';

/** A sample analysis with an exact place on the map (web/src/components/usmap/zipCentroids.json). */
const ZIP_WITH_ANALYSIS = '15212';
/** No analysis (not in the sample), placed on the map by its region. */
const ZIP_WITHOUT_ANALYSIS = '59801';
const street = (label: string) =>
  `${Math.floor(Math.random() * 9000) + 100} ${label} ${crypto.randomUUID().slice(0, 6)} Street`;

/** The figures staff enter on the admin request page (issue 40; its own browser test enters them there). */
async function setSummary(adminToken: string, id: string, summary: ReportSummary) {
  const res = await api('PUT', `/api/admin/requests/${id}/summary`, { token: adminToken, body: summary });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).filter(isSerious).map(violationLine);
}

/** How much wider than the window the page is at `width` px. */
async function excessAt(page: Page, width: number): Promise<number> {
  await page.setViewportSize({ width, height: 800 });
  // The PDF page is drawn again at the new width.
  await page.waitForFunction(() => document.querySelector('.spinner') === null);
  // The trend chart and the PDF page take the new width when their ResizeObserver fires, a frame or
  // two later: give them that, then read what is left (a page that stays too wide fails below).
  await page
    .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, { timeout: 5_000 })
    .catch(() => undefined);
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Pixels of the drawn PDF page that are not white: the page's text was drawn. */
const inkedPixels = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="pdf-canvas"]');
    const data = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
    let inked = 0;
    for (let i = 0; data && i < data.length; i += 4) if ((data[i] ?? 255) < 200) inked += 1;
    return inked;
  });

describe('the report page', () => {
  const browser = useBrowser();
  afterAll(closeSupport);

  it('shows the figures, the report read in the page, the ZIP market around it and its place on the map', async () => {
    const admin = await newAdmin();
    const address = `${street('Figures')}, Pittsburgh, PA ${ZIP_WITH_ANALYSIS}`;
    const id = await createRequestViaApi(address);
    await coverViaApi(admin.token, id, address, ['Valuation summary for the buyer', 'Comparable sales nearby']);
    await setSummary(admin.token, id, {
      estimated_value: 215_000,
      monthly_rent: 1_650,
      beds: 3,
      baths: 1.5,
      sqft: 1_430,
      year_built: 1925,
      headline: 'Brick rowhouse two blocks from the park',
    });
    const analysis = (await api<ZipDetailReply>('GET', `/api/zipcodes/${ZIP_WITH_ANALYSIS}`)).body.zipCode;

    const reader = await verifiedUser('report-reader');
    const page = await signedInPage(browser(), reader.token);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`/report/${id}`);
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);

    // The headline figures, at the top.
    await expect(page.getByTestId('report-headline').textContent()).resolves.toBe(
      'Brick rowhouse two blocks from the park',
    );
    await expect(page.getByTestId('report-figure-estimated_value').textContent()).resolves.toBe('$215,000');
    await expect(page.getByTestId('report-figure-monthly_rent').textContent()).resolves.toBe('$1,650/mo');
    await expect(page.getByTestId('report-figure-baths').textContent()).resolves.toBe('1.5');
    await expect(page.getByTestId('report-figure-price_per_sqft').textContent()).resolves.toBe('$150');

    // The first page of the PDF drawn in the page: ink on the canvas, its text over it.
    await page.locator('[data-testid="pdf-page"][data-rendered-page="1"]').waitFor({ timeout: 30_000 });
    expect(await inkedPixels(page)).toBeGreaterThan(50);
    await expect(page.getByTestId('pdf-text').textContent()).resolves.toContain('Valuation summary for the buyer');
    await expect(page.getByTestId('pdf-page-number').textContent()).resolves.toBe('Page 1 of 2');
    await page.getByTestId('pdf-next').click();
    await page.locator('[data-testid="pdf-page"][data-rendered-page="2"]').waitFor();
    await expect(page.getByTestId('pdf-text').textContent()).resolves.toContain('Comparable sales nearby');
    await page.getByTestId('pdf-previous').click();
    await page.locator('[data-testid="pdf-page"][data-rendered-page="1"]').waitFor();
    // The file itself is still one click away.
    await expect(page.getByTestId('report-section-report').getAttribute('href')).resolves.toMatch(/^\/api\/files\//);

    // The ZIP code's market, in context, with the way to its whole analysis.
    const zip = page.getByTestId('report-zip');
    await zip.waitFor();
    await expect(page.getByTestId('report-zip-tier').textContent()).resolves.toBe('Tier 3 · Emerging');
    const median = analysis.marketFundamentals.medianSalePrice?.value as number;
    await expect(page.getByTestId('report-zip-median-price').textContent()).resolves.toBe(
      `$${median.toLocaleString('en-US')}`,
    );
    await expect(page.getByTestId('report-zip-median-rent').textContent()).resolves.toMatch(/^\$[\d,]+\/mo$/);
    await expect(page.getByTestId('report-zip-against').textContent()).resolves.toMatch(
      new RegExp(`% (above|below) the median sale price in ${ZIP_WITH_ANALYSIS}\\.$`),
    );
    await zip.getByTestId('price-trend-chart').locator('svg').first().waitFor();
    await expect(page.getByTestId('report-zip-link').getAttribute('href')).resolves.toBe(`/zip/${ZIP_WITH_ANALYSIS}`);

    // Its place on the map.
    const point = page.locator(`[data-testid="report-map"] [data-testid="map-point"][data-zip="${ZIP_WITH_ANALYSIS}"]`);
    await point.waitFor();
    await expect(point.getAttribute('aria-label')).resolves.toBe(address);

    // Save and Share side by side.
    const save = await page.locator('[data-testid="report"] [data-testid="save-star"]').boundingBox();
    const share = await page.getByTestId('share-create').boundingBox();
    expect(Math.abs((save?.y ?? 0) - (share?.y ?? 100))).toBeLessThan(8);
    expect(share?.x ?? 0).toBeGreaterThan((save?.x ?? 0) + (save?.width ?? 0));

    expect(await seriousViolations(page)).toEqual([]);
    expect(blocked).toEqual([]);
    // From the top: the pager's clicks scrolled the page, and the sticky header would sit mid-image.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'report-page-1280');
    expect(await excessAt(page, 390)).toBeLessThanOrEqual(0);
    await page.locator('[data-testid="pdf-page"][data-rendered-page="1"]').waitFor();
    await screenshot(page, 'report-page-390');
    expect(await excessAt(page, 320)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('a report without figures nor a ZIP analysis still reads well', async () => {
    const admin = await newAdmin();
    const address = `${street('Plain')}, Missoula, MT ${ZIP_WITHOUT_ANALYSIS}`;
    const id = await createRequestViaApi(address);
    await coverViaApi(admin.token, id, address, ['A plain report']);
    const reader = await verifiedUser('plain-reader');
    const page = await signedInPage(browser(), reader.token);
    await page.goto(`/report/${id}`);
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);
    await page.locator('[data-testid="pdf-page"][data-rendered-page="1"]').waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('pdf-text').textContent()).resolves.toContain('A plain report');
    // No empty figures, no market card; still on the map, near its ZIP code.
    expect(await page.getByTestId('report-figures').count()).toBe(0);
    expect(await page.getByTestId('report-headline').count()).toBe(0);
    expect(await page.getByTestId('report-zip').count()).toBe(0);
    expect(await page.getByTestId('pdf-pager').count()).toBe(0);
    await page.locator(`[data-testid="map-point"][data-zip="${ZIP_WITHOUT_ANALYSIS}"]`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'report-page-plain-1280');
    expect(await excessAt(page, 320)).toBeLessThanOrEqual(0);
    await screenshot(page, 'report-page-plain-320');
    await page.context().close();
  });
});
