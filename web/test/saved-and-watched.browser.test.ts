import type { SavedReportsReply, ZipWatchReply } from '@homereport/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, eventually } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { coverViaApi, createRequestViaApi, newAdmin, signedInPage, uniqueAddress, verifiedUser } from './fixtures.js';

/** A ZIP code of the sample data set (loaded into an empty database at start). */
const SAMPLE_ZIP = '44113';

describe('saved reports and watched ZIP codes in a browser', () => {
  const browser = useBrowser();

  const open = async (token: string): Promise<Page> => {
    const page = await signedInPage(browser(), token);
    return page;
  };
  const pressed = (page: Page, selector: string, value: boolean) =>
    page.waitForSelector(`${selector}[aria-pressed="${value}"]`);

  it('a reader stars reports on /properties and the report page, finds them on the dashboard, and removes one there', async () => {
    const admin = await newAdmin();
    const [first, second] = [uniqueAddress('Starred'), uniqueAddress('Starred')];
    const firstId = await createRequestViaApi(first);
    await coverViaApi(admin.token, firstId, first);
    const secondId = await createRequestViaApi(second);
    await coverViaApi(admin.token, secondId, second);
    const reader = await verifiedUser('starrer');
    const page = await open(reader.token);

    // On /properties: the first report's star.
    await page.goto('/properties');
    const card = `[data-testid="property-card"][data-id="${firstId}"]`;
    await page.locator(card).waitFor();
    await pressed(page, `${card} [data-testid="save-star"]`, false);
    await page.locator(`${card} [data-testid="save-star"]`).click();
    await pressed(page, `${card} [data-testid="save-star"]`, true);
    await screenshot(page, 'properties-saved-star');

    // On the report page: the second one's.
    await page.goto(`/report/${secondId}`);
    await page.getByTestId('report').waitFor();
    await pressed(page, '[data-testid="report"] [data-testid="save-star"]', false);
    await page.locator('[data-testid="report"] [data-testid="save-star"]').click();
    await pressed(page, '[data-testid="report"] [data-testid="save-star"]', true);
    await screenshot(page, 'report-saved-star');

    // The dashboard lists both, newest saved first.
    await page.goto('/dashboard');
    const rows = page.locator('[data-testid="saved-report"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="saved-report"]').length === 2);
    await expect(rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-id')))).resolves.toEqual([
      secondId,
      firstId,
    ]);
    await expect(page.getByTestId('saved-reports').textContent()).resolves.toContain(second);
    await screenshot(page, 'dashboard-saved-reports');

    // Removed on the dashboard: gone from the list and from the server.
    await page
      .locator(`[data-testid="saved-report"][data-id="${firstId}"] [data-testid="saved-report-remove"]`)
      .click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="saved-report"]').length === 1);
    const saved = await api<SavedReportsReply>('GET', '/api/users/saved', { token: reader.token });
    expect(saved.body.saved.map((r) => r.id)).toEqual([secondId]);
  });

  it('a signed-in user watches a ZIP code from its page and stops; a visitor is asked to sign in', async () => {
    const reader = await verifiedUser('zipwatcher');
    const page = await open(reader.token);
    await page.goto(`/zip/${SAMPLE_ZIP}`);
    const toggle = page.getByTestId('zip-watch');
    await pressed(page, '[data-testid="zip-watch"]', false);
    await expect(toggle.textContent()).resolves.toContain('Watch this ZIP');
    await toggle.click();
    await pressed(page, '[data-testid="zip-watch"]', true);
    await expect(toggle.textContent()).resolves.toContain('Watching this ZIP');
    await screenshot(page, 'zip-watching');
    const watched = async () => (await api<ZipWatchReply>('GET', '/api/users/zip-watch', { token: reader.token })).body;
    expect((await watched()).zips).toEqual([SAMPLE_ZIP]);

    // Kept across a reload (read from the server), and undone by a second click.
    await page.reload();
    await pressed(page, '[data-testid="zip-watch"]', true);
    await toggle.click();
    await pressed(page, '[data-testid="zip-watch"]', false);
    await eventually(async () => ((await watched()).zips.length === 0 ? true : undefined), 10_000, 'the watch gone');

    const visitor = await newPage(browser());
    await visitor.goto(`/zip/${SAMPLE_ZIP}`);
    const signIn = visitor.getByTestId('zip-watch-sign-in');
    await signIn.waitFor();
    await expect(signIn.getAttribute('href')).resolves.toBe(`/login?next=%2Fzip%2F${SAMPLE_ZIP}`);
  });
});
