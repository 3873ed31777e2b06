import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PHONE, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import { coverViaApi, createRequestViaApi, newAdmin, signedInPage } from './fixtures.js';

/** Issue 19, "Find things": search, order and paging on /properties and the admin's full list. */

const word = () => `Qz${randomUUID().replaceAll('-', '').slice(0, 8)}`;
const cardAddresses = (page: Page) => page.locator('[data-testid="property-list"] .property-address').allTextContents();

describe('finding reports and requests', () => {
  const browser = useBrowser();
  let admin: { email: string; token: string };

  beforeAll(async () => {
    admin = await newAdmin();
  });

  it('/properties searches by address words, sorts by city, keeps both in the URL, and Back restores them', async () => {
    const street = word();
    const addresses = [
      `1 ${street} St, Denver, CO 80202`,
      `2 ${street} St, Albany, NY 12207`,
      `3 ${street} St, Boise, ID 83702`,
    ];
    for (const address of addresses) await coverViaApi(admin.token, await createRequestViaApi(address), address);

    const page = await newPage(browser());
    await page.goto(`${testEnv().gatewayUrl}/properties`);
    await page.getByTestId('properties-search').fill(street.toLowerCase());
    await page.waitForURL(new RegExp(`q=${street.toLowerCase()}`));
    await expect.poll(() => cardAddresses(page)).toEqual([addresses[2], addresses[1], addresses[0]]);

    await page.getByTestId('properties-sort').selectOption('city');
    await page.waitForURL(/sort=city/);
    await expect.poll(() => cardAddresses(page)).toEqual([addresses[1], addresses[2], addresses[0]]);

    // A bookmark or a reload shows the same list.
    await page.reload();
    await expect.poll(() => cardAddresses(page)).toEqual([addresses[1], addresses[2], addresses[0]]);
    expect(await page.getByTestId('properties-search').inputValue()).toBe(street.toLowerCase());

    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('sort=city'));
    await expect.poll(() => cardAddresses(page)).toEqual([addresses[2], addresses[1], addresses[0]]);

    await page.getByTestId('properties-search').fill(`${street} nowhere`);
    await expect(page.getByTestId('properties-no-match').waitFor()).resolves.toBeUndefined();
    expect(await page.getByTestId('properties-no-match').textContent()).toContain('No Reports Match');
    await screenshot(page, 'properties-no-match');
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await page.waitForURL((url) => url.search === '');
    await page.close();
  });

  it('/properties fits a phone with its search box', async () => {
    const page = await newPage(browser(), PHONE);
    await page.goto(`${testEnv().gatewayUrl}/properties`);
    await page.getByTestId('properties-search').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'properties-search-phone');
    await page.close();
  });

  it('the admin reaches every request from the dashboard: search, status filter in the URL, and Load More', async () => {
    const street = word();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createRequestViaApi(`${i + 1} ${street} Rd, Tulsa, OK 74103`));
    await coverViaApi(admin.token, ids[0] as string, `1 ${street} Rd, Tulsa, OK 74103`);

    const page = await signedInPage(browser(), admin.token);
    await page.goto(`${testEnv().gatewayUrl}/admin`);
    await page.getByTestId('all-requests-link').click();
    await page.waitForURL(/\/admin\/requests$/);
    await page.getByTestId('admin-request-row').first().waitFor();

    await page.getByTestId('admin-requests-search').fill(street);
    await page.waitForURL(new RegExp(`q=${street}`));
    const rowIds = () =>
      page.getByTestId('admin-request-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    await expect.poll(rowIds).toEqual([ids[2], ids[1], ids[0]]);

    await page.getByTestId('admin-requests-status').selectOption('covered');
    await page.waitForURL(/status=covered/);
    await expect.poll(rowIds).toEqual([ids[0]]);
    await screenshot(page, 'admin-requests-filtered');

    // Back to the whole list: more than a page of requests exist, Load More brings the next.
    await page.goto(`${testEnv().gatewayUrl}/admin/requests`);
    await page.getByTestId('admin-request-row').first().waitFor();
    const more = page.getByTestId('admin-requests-more');
    if (await more.isVisible()) {
      const before = await page.getByTestId('admin-request-row').count();
      await more.click();
      await expect.poll(() => page.getByTestId('admin-request-row').count()).toBeGreaterThan(before);
    }
    await page.close();
  });
});
