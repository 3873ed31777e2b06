import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../../test/support/api.js';
import { screenshot, useBrowser } from '../../test/support/browser.js';
import { coverViaApi, createRequestViaApi, newAdmin, signedInPage, verifiedUser } from './fixtures.js';

/** Issue 36: one property, one report, one credit, seen as people would. */

/** A counter's value once it has one: while its figures load a counter shows a dash, not 0. */
async function counter(page: Page, testId: string): Promise<number> {
  await page.waitForFunction(
    (id) => /^\d+$/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    testId,
  );
  return Number(await page.getByTestId(testId).textContent());
}

describe('one property, however it is spelled', () => {
  const browser = useBrowser();
  let admin: { email: string; token: string };

  beforeAll(async () => {
    admin = await newAdmin();
  });

  it('three spellings by three people are one card; a fourth person opening it twice through two request ids spends one credit', async () => {
    const street = `Twin${randomUUID().replaceAll('-', '').slice(0, 6)}`;
    const spellings = [
      `8061 ${street} St, Denver, CO 80202`,
      `8061 ${street} Street, Denver, CO 80202`,
      `8061 ${street.toUpperCase()} ST, DENVER, CO 80202-4410`,
    ];
    const dashboard = async () =>
      (await api('GET', '/api/admin/dashboard', { token: admin.token })).body.stats as { properties: number };
    const propertiesBefore = (await dashboard()).properties;
    const ids: string[] = [];
    for (const address of spellings) ids.push(await createRequestViaApi(address, (await verifiedUser()).token));
    const [first, second, third] = ids as [string, string, string];
    await coverViaApi(admin.token, second, spellings[1] as string);

    const reader = await verifiedUser('fourth');
    const page = await signedInPage(browser(), reader.token);
    await page.goto(`/properties?q=${street.toLowerCase()}`);
    const cards = page.getByTestId('property-card');
    await expect.poll(() => cards.count()).toBe(1);
    await expect(cards.first().getByTestId('property-requests-count').textContent()).resolves.toContain('3 requests');
    await screenshot(page, 'property-one-card');

    // Through the card, then through another request of the same property (its requester's link).
    await cards.first().getByTestId('view-full-report').click();
    await page.waitForURL(`**/report/${second}`);
    await page.getByTestId('report').waitFor();
    await page.goto(`/report/${third}`);
    await page.getByTestId('report').waitFor();
    // The same report, under that request's own spelling.
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(spellings[2]);

    await page.goto('/dashboard');
    await eventually(async () => (await counter(page, 'stat-views')) === 2, 10_000, 'two views');
    expect(await counter(page, 'stat-credits')).toBe(9);
    expect(await counter(page, 'stat-unique')).toBe(1);
    // Recent Activity: the property once, though it was opened through two request ids.
    await expect.poll(() => page.getByTestId('activity-entry').count()).toBe(1);
    await screenshot(page, 'property-dashboard-one-credit');

    // Staff: the property counts once on the dashboard, and each request shows the others.
    const staff = await signedInPage(browser(), admin.token);
    await staff.goto('/admin');
    await eventually(
      async () => (await counter(staff, 'admin-stat-properties')) >= propertiesBefore + 1,
      10_000,
      'the properties counter',
    );
    expect((await dashboard()).properties).toBe(propertiesBefore + 1);
    // The queue: each of the three says so, and leads to the property's requests.
    await staff.goto(`/admin/requests?q=${street.toLowerCase()}`);
    const rows = staff.getByTestId('admin-request-row');
    await expect.poll(() => rows.count()).toBe(3);
    await expect(rows.first().textContent()).resolves.toContain('3 requests from 3 people for this property');
    await screenshot(staff, 'admin-queue-property');
    await staff
      .locator(`[data-testid="admin-request-row"][data-id="${first}"]`)
      .getByTestId('property-requests-link')
      .click();
    await staff.waitForURL(`**/admin/request/${first}#property`);
    await expect(staff.getByTestId('property-requests-summary').textContent()).resolves.toContain(
      '3 requests from 3 people',
    );
    await expect.poll(() => staff.getByTestId('property-request-row').count()).toBe(2);
    await staff.getByTestId('property-requests').scrollIntoViewIfNeeded();
    await screenshot(staff, 'admin-property-requests');
    // The queue filtered by the property: its three requests and nothing else, until cleared.
    await staff.getByTestId('property-requests-queue').click();
    await staff.waitForURL('**/admin/requests?property=*');
    await staff.getByTestId('admin-requests-property-filter').waitFor();
    await expect.poll(() => staff.getByTestId('admin-request-row').count()).toBe(3);
    const listed = await staff
      .getByTestId('admin-request-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(listed.sort()).toEqual([...ids].sort());
    await staff.getByRole('button', { name: 'Show every property' }).click();
    await staff.getByTestId('admin-requests-property-filter').waitFor({ state: 'detached' });
    expect(new URL(staff.url()).searchParams.has('property')).toBe(false);
  });

  it('a requester asking again sees when they asked, with a link to their request', async () => {
    const user = await verifiedUser('again');
    const address = `12 Elm${randomUUID().slice(0, 6)} Road, Salem, OR 97301`;
    await createRequestViaApi(address, user.token);
    const page = await signedInPage(browser(), user.token);
    await page.goto('/request');
    await page.getByTestId('request-address').fill(address.replace('Road', 'Rd').toLowerCase());
    await page.getByTestId('request-submit').click();
    await page.getByTestId('request-repeat').waitFor();
    await expect(page.getByTestId('request-repeat-text').textContent()).resolves.toMatch(
      /^You asked about this property on /,
    );
    await screenshot(page, 'property-repeat');
    await page.getByTestId('request-repeat-link').click();
    await page.waitForURL('**/dashboard');
    // My Requests: the property once.
    await expect.poll(() => page.getByTestId('my-request').count()).toBe(1);
  });
});
