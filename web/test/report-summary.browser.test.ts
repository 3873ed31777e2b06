import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAnalysis, freshZip, importAnalyses } from '../../services/zipcodes/test/support/zipcodes.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import { axeViolations, isSerious, violationLine } from './axe.js';
import { coverViaApi, createRequestViaApi, newAdmin, pdfBytes, signedInPage } from './fixtures.js';

/** Issue 40: a report's headline figures, entered by staff, on Browse cards and the ZIP code's page. */

const NARROWEST = { width: 320, height: 640 };

/** The main report uploaded through the API, as staff would before covering. */
async function uploadReport(adminToken: string, id: string): Promise<void> {
  const form = new FormData();
  form.append('report', new Blob([new Uint8Array(pdfBytes('Report'))], { type: 'application/pdf' }), 'report.pdf');
  const res = await fetch(`${testEnv().gatewayUrl}/api/admin/requests/${id}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: form,
  });
  expect(res.status).toBe(200);
}

async function expectNoSeriousAxe(page: Page, what: string): Promise<void> {
  const serious = (await axeViolations(page)).filter(isSerious);
  expect(serious.map(violationLine).join('\n'), what).toBe('');
}

/**
 * The page at `path` opened in a 320 px window (the narrowest phones) is no wider than the window,
 * once `ready` shows (charts and lists lay out after their data).
 */
async function expectFitsNarrowest(from: Page, path: string, ready: string, name: string): Promise<void> {
  const page = await from.context().newPage();
  await page.setViewportSize(NARROWEST);
  await page.goto(path);
  await page.getByTestId(ready).first().waitFor();
  const excess = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await expect.poll(excess, { message: `${name} wider than 320 px` }).toBeLessThanOrEqual(0);
  await screenshot(page, `${name}-320`);
  await page.close();
}

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

describe('headline figures, from the admin request page to Browse and the ZIP page', () => {
  const browser = useBrowser();
  let admin: { email: string; token: string };
  beforeAll(async () => {
    admin = await newAdmin();
  });

  it('the admin enters figures and covers; the card shows them and the ZIP tier; the ZIP page lists its reports', async () => {
    const zip = freshZip();
    const analysis = buildAnalysis(zip);
    expect((await importAnalyses([analysis])).body.imported).toEqual([zip]);
    const tierNumber = /TIER ([123])/.exec(analysis.reportMetadata.tier)?.[1];
    const street = `Maple${randomUUID().slice(0, 6)}`;
    const address = `418 ${street} Street, Austin, TX ${zip}`;
    const id = await createRequestViaApi(address);
    await uploadReport(admin.token, id);
    // A second report of the ZIP code, without figures: its card still reads as a report.
    const plainAddress = `77 ${street} Lane, Austin, TX ${zip}`;
    await coverViaApi(admin.token, await createRequestViaApi(plainAddress), plainAddress);

    const staff = await signedInPage(browser(), admin.token);
    await staff.goto(`/admin/request/${id}`);
    const figures = staff.getByTestId('headline-figures');
    await figures.waitFor();
    // The API's limits are the browser's.
    const limits = (testId: string) =>
      staff.getByTestId(testId).evaluate((el: HTMLInputElement) => ({ min: el.min, max: el.max, step: el.step }));
    await expect(limits('summary-beds')).resolves.toEqual({ min: '0', max: '50', step: '1' });
    await expect(limits('summary-baths')).resolves.toEqual({ min: '0', max: '50', step: '0.5' });
    await expect(limits('summary-estimated_value')).resolves.toEqual({ min: '1', max: '100000000', step: '1' });
    await expect(limits('summary-year_built')).resolves.toMatchObject({
      min: '1700',
      max: String(new Date().getFullYear() + 1),
    });
    await expect(staff.getByTestId('summary-headline').evaluate((el: HTMLInputElement) => el.maxLength)).resolves.toBe(
      280,
    );

    // Past the browser's limit, the server's refusal: a sentence about the field, which is marked.
    await staff.getByTestId('summary-beds').evaluate((el) => el.removeAttribute('max'));
    await staff.getByTestId('summary-beds').fill('51');
    await staff.getByTestId('summary-save').click();
    const refusal = staff.getByTestId('summary-error');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toBe('The number of bedrooms must be a whole number from 0 to 50.');
    await expect(staff.getByTestId('summary-beds').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(staff, 'summary-refused');

    await staff.getByTestId('summary-estimated_value').fill('485000');
    await staff.getByTestId('summary-monthly_rent').fill('2650');
    await staff.getByTestId('summary-beds').fill('3');
    await staff.getByTestId('summary-baths').fill('2.5');
    await staff.getByTestId('summary-sqft').fill('1840');
    await staff.getByTestId('summary-year_built').fill('1987');
    await staff.getByTestId('summary-headline').fill('Corner lot near the light rail, priced under the street.');
    await staff.getByTestId('summary-save').click();
    await staff.getByTestId('action-success').waitFor();
    await expect(staff.getByTestId('summary-error').count()).resolves.toBe(0);
    // Filled from what the server now holds.
    await expect.poll(() => staff.getByTestId('summary-baths').inputValue()).toBe('2.5');

    await staff.getByTestId('status-covered').click();
    await expect.poll(() => staff.getByTestId('request-status').getAttribute('data-status')).toBe('covered');
    // Still editable once covered.
    await expect(staff.getByTestId('summary-save').isEnabled()).resolves.toBe(true);
    await expectNoSeriousAxe(staff, 'admin request page');
    await screenshot(staff, 'summary-admin-request');
    await expectFitsNarrowest(staff, `/admin/request/${id}`, 'headline-figures', 'summary-admin-request');
    await staff.context().close();

    // Browse: anyone sees the figures and the ZIP code's tier on the card.
    const visitor = await newPage(browser());
    await visitor.goto(`/properties?q=${street.toLowerCase()}`);
    const cards = visitor.getByTestId('property-card');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(2);
    const card = visitor.locator(`[data-testid="property-card"][data-id="${id}"]`);
    await expect(card.getByTestId('property-figures-estimated_value').textContent()).resolves.toBe(
      'Estimated value$485,000',
    );
    await expect(card.getByTestId('property-figures-monthly_rent').textContent()).resolves.toContain('$2,650/mo');
    await expect(card.getByTestId('property-figures-home').textContent()).resolves.toContain(
      '3 beds · 2.5 baths · 1,840 sq ft',
    );
    await expect(card.getByTestId('property-figures-year_built').textContent()).resolves.toContain('1987');
    await expect(card.getByTestId('property-figures-headline').textContent()).resolves.toBe(
      'Corner lot near the light rail, priced under the street.',
    );
    await card.getByTestId('property-zip-tier').waitFor();
    await expect(card.getByTestId('property-zip-tier').textContent()).resolves.toContain(`Tier ${tierNumber}`);
    // The card without figures: no empty figure block, the report's contents instead; the ZIP code still.
    const plain = cards.filter({ hasNot: visitor.getByTestId('property-figures') });
    await expect(plain.count()).resolves.toBe(1);
    await expect(plain.locator('.property-features li').count()).resolves.toBe(3);
    await expect(plain.getByTestId('property-zip').textContent()).resolves.toContain(`ZIP ${zip}`);
    await expectNoSeriousAxe(visitor, '/properties');
    await screenshot(visitor, 'summary-browse-cards');
    await expectFitsNarrowest(
      visitor,
      `/properties?q=${street.toLowerCase()}`,
      'property-figures',
      'summary-browse-cards',
    );

    // The ZIP code's page lists its covered properties, with links to their cards and reports.
    await visitor.goto(`/zip/${zip}`);
    const list = visitor.getByTestId('zip-property');
    await expect.poll(() => list.count(), { timeout: 15_000 }).toBe(2);
    const item = visitor.locator(`[data-testid="zip-property"][data-id="${id}"]`);
    await expect(item.getByTestId('zip-property-card-link').textContent()).resolves.toBe(address);
    await expect(item.getByTestId('zip-property-figures-estimated_value').textContent()).resolves.toContain('$485,000');
    await expect(item.getByTestId('zip-property-report-link').getAttribute('href')).resolves.toBe(`/report/${id}`);
    // No private field reaches the page: the notes staff see are not in the list.
    expect(await visitor.getByTestId('zip-properties').textContent()).not.toContain('Created by the browser test');
    await item.getByTestId('zip-property-card-link').scrollIntoViewIfNeeded();
    await expectNoSeriousAxe(visitor, '/zip/:zip');
    await screenshot(visitor, 'summary-zip-properties');
    await expectFitsNarrowest(visitor, `/zip/${zip}`, 'zip-property', 'summary-zip-properties');

    // The card link leads to that card on Browse.
    await item.getByTestId('zip-property-card-link').click();
    await visitor.waitForURL('**/properties?q=*');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(1);
    await expect(cards.first().getAttribute('data-id')).resolves.toBe(id);
    await visitor.context().close();
  });

  it('a ZIP code page says when no property has a report yet, and when the list could not be loaded', async () => {
    const zip = freshZip();
    expect((await importAnalyses([buildAnalysis(zip)])).body.imported).toEqual([zip]);
    const page = await newPage(browser());
    await page.goto(`/zip/${zip}`);
    await page.getByTestId('zip-properties-empty').waitFor();
    await expect(text(page, 'zip-properties-empty')).resolves.toBe(
      `No property in ${zip} has a report yet. Request one and we will cover it.`,
    );
    await expectNoSeriousAxe(page, '/zip/:zip without reports');

    // The list's call fails: said as a failure with a Retry, not as "no reports".
    await page.route('**/api/requests/covered?zip=*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Service unavailable."}' }),
    );
    await page.reload();
    await page.getByTestId('zip-properties-error').waitFor({ timeout: 20_000 });
    await expect(page.getByTestId('zip-properties-empty').count()).resolves.toBe(0);
    await screenshot(page, 'summary-zip-properties-failed');
    await page.context().close();
  });
});
