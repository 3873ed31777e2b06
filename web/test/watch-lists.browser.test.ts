import type { SavedReportsReply, ZipListItem, ZipWatchReply } from '@homereport/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../test/support/api.js';
import { screenshot, useBrowser } from '../../test/support/browser.js';
import { axeViolations, isSerious, violationLine } from './axe.js';
import { coverViaApi, createRequestViaApi, newAdmin, signedInPage, uniqueAddress, verifiedUser } from './fixtures.js';

/**
 * Issue 40: the dashboard and Settings list the watched ZIP codes and the saved reports, each row
 * with a Remove button; loading, empty and failed are told apart.
 */

const NARROWEST = { width: 320, height: 640 };

/** The data-id of each row of a list, in order, once it has `count` of them. */
async function rowIds(page: Page, testId: string, count: number): Promise<string[]> {
  await page.waitForFunction(([id, n]) => document.querySelectorAll(`[data-testid="${id}"]`).length === n, [
    testId,
    count,
  ] as const);
  return page
    .locator(`[data-testid="${testId}"]`)
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''));
}

async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).filter(isSerious).map(violationLine);
}

/** How many pixels the page is wider than the window (0 when it fits). */
const excessWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('watch lists on the dashboard and in Settings', () => {
  const browser = useBrowser();
  let admin: { token: string };
  let zips: string[];

  beforeAll(async () => {
    admin = await newAdmin();
    const list = await api<{ zipCodes: ZipListItem[] }>('GET', '/api/zipcodes');
    zips = list.body.zipCodes.slice(0, 2).map((item) => item.zipCode);
    expect(zips).toHaveLength(2);
  });

  /** A reader who saved two covered reports (`first` then `second`) and watches both ZIP codes. */
  async function readerWithLists(label: string) {
    const first = uniqueAddress(label);
    const second = uniqueAddress(label);
    const firstId = await createRequestViaApi(first);
    await coverViaApi(admin.token, firstId, first);
    const secondId = await createRequestViaApi(second);
    await coverViaApi(admin.token, secondId, second);
    const reader = await verifiedUser(label.toLowerCase());
    for (const id of [firstId, secondId])
      expect((await api('PUT', `/api/users/saved/${id}`, { token: reader.token })).status).toBe(204);
    for (const zip of zips)
      expect((await api('PUT', `/api/users/zip-watch/${zip}`, { token: reader.token })).status).toBe(204);
    const lists = async () => ({
      saved: (await api<SavedReportsReply>('GET', '/api/users/saved', { token: reader.token })).body.saved.map(
        (r) => r.id,
      ),
      zips: (await api<ZipWatchReply>('GET', '/api/users/zip-watch', { token: reader.token })).body.zips,
    });
    return { reader, first, second, firstId, secondId, lists };
  }

  it('the dashboard lists both; Remove takes one off for good, and a refused removal keeps it and says so', async () => {
    const { reader, second, firstId, secondId, lists } = await readerWithLists('Watched');
    const page = await signedInPage(browser(), reader.token);
    await page.goto('/dashboard');

    // Newest first, as saved and watched.
    await expect(rowIds(page, 'saved-report', 2)).resolves.toEqual([secondId, firstId]);
    await expect(rowIds(page, 'watched-zip', 2)).resolves.toEqual([zips[1], zips[0]]);
    await expect(page.getByTestId('saved-reports').textContent()).resolves.toContain(second);
    await expect(page.getByTestId('watched-zips').textContent()).resolves.toContain(`ZIP ${zips[0]}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'watch-lists-dashboard');
    await page.setViewportSize(NARROWEST);
    expect(await excessWidth(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'watch-lists-dashboard-320');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Removed here: gone from the list, said in words, and gone on the server.
    await page
      .locator(`[data-testid="saved-report"][data-id="${firstId}"] [data-testid="saved-report-remove"]`)
      .click();
    await expect(rowIds(page, 'saved-report', 1)).resolves.toEqual([secondId]);
    await page.getByTestId('saved-report-removal-done').waitFor();
    await page.locator(`[data-testid="watched-zip"][data-id="${zips[0]}"] [data-testid="watched-zip-remove"]`).click();
    await expect(rowIds(page, 'watched-zip', 1)).resolves.toEqual([zips[1]]);
    await expect(page.getByTestId('watched-zip-removal-done').textContent()).resolves.toContain(zips[0]);
    await expect.poll(lists, { timeout: 10_000 }).toEqual({ saved: [secondId], zips: [zips[1]] });

    // Still removed after a reload (read from the server, not kept in the page).
    await page.reload();
    await expect(rowIds(page, 'saved-report', 1)).resolves.toEqual([secondId]);
    await expect(rowIds(page, 'watched-zip', 1)).resolves.toEqual([zips[1]]);

    // The server refuses a removal: the row stays (or comes back) and the card says why.
    await page.route(
      (url) => url.pathname === `/api/users/zip-watch/${zips[1]}`,
      (route) =>
        route.request().method() === 'DELETE'
          ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Unavailable"}' })
          : route.continue(),
    );
    await page.locator(`[data-testid="watched-zip"][data-id="${zips[1]}"] [data-testid="watched-zip-remove"]`).click();
    const refused = page.getByTestId('watched-zip-removal-error');
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toContain(`We could not remove ZIP ${zips[1]}`);
    await expect(rowIds(page, 'watched-zip', 1)).resolves.toEqual([zips[1]]);
    await screenshot(page, 'watch-lists-dashboard-refused');
    await page.unrouteAll();
    expect((await lists()).zips).toEqual([zips[1]]);

    // A list that cannot be read says so (with Retry) instead of looking empty; the other list is unaffected.
    await page.route(
      (url) => url.pathname === '/api/users/zip-watch',
      (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Unavailable"}' }),
    );
    await page.reload();
    await page.getByTestId('watched-zips-failed').waitFor();
    await expect(page.getByTestId('watched-zips-empty').count()).resolves.toBe(0);
    await expect(rowIds(page, 'saved-report', 1)).resolves.toEqual([secondId]);
    await page.unrouteAll();
    await page.getByTestId('watched-zips-failed-retry').click();
    await expect(rowIds(page, 'watched-zip', 1)).resolves.toEqual([zips[1]]);
  });

  it('Settings lists both; removing everything leaves the empty lists, and the page fits 320 px', async () => {
    const { reader, firstId, secondId, lists } = await readerWithLists('Settled');
    const page = await signedInPage(browser(), reader.token);
    await page.goto('/settings');
    await page.getByTestId('settings-watch-lists').waitFor();
    await expect(rowIds(page, 'saved-report', 2)).resolves.toEqual([secondId, firstId]);
    await expect(rowIds(page, 'watched-zip', 2)).resolves.toEqual([zips[1], zips[0]]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'watch-lists-settings');

    await page.setViewportSize(NARROWEST);
    expect(await excessWidth(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'watch-lists-settings-320');
    await page.setViewportSize({ width: 1280, height: 800 });

    for (const id of [firstId, secondId]) {
      await page.locator(`[data-testid="saved-report"][data-id="${id}"] [data-testid="saved-report-remove"]`).click();
      await page.waitForFunction(
        (gone) => !document.querySelector(`[data-testid="saved-report"][data-id="${gone}"]`),
        id,
      );
    }
    for (const zip of zips) {
      await page.locator(`[data-testid="watched-zip"][data-id="${zip}"] [data-testid="watched-zip-remove"]`).click();
      await page.waitForFunction(
        (gone) => !document.querySelector(`[data-testid="watched-zip"][data-id="${gone}"]`),
        zip,
      );
    }
    await page.getByTestId('saved-reports-empty').waitFor();
    await page.getByTestId('watched-zips-empty').waitFor();
    await expect.poll(lists, { timeout: 10_000 }).toEqual({ saved: [], zips: [] });

    // Empty after a reload too, and the dashboard agrees.
    await page.reload();
    await page.getByTestId('saved-reports-empty').waitFor();
    await page.getByTestId('watched-zips-empty').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(NARROWEST);
    expect(await excessWidth(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'watch-lists-settings-empty-320');
    await page.goto('/dashboard');
    await page.getByTestId('watched-zips-empty').waitFor();
    expect(await excessWidth(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'watch-lists-dashboard-empty-320');
  });
});
