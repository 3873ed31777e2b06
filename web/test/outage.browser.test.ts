import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { linkIn, waitForEmail } from '../../test/support/mail.js';
import {
  PASSWORD,
  coverViaApi,
  createRequestViaApi,
  newAdmin,
  signedInPage,
  uniqueAddress,
  verifiedUser,
} from './fixtures.js';

/** Issue 19: an outage is not data, and signing in returns to where the visitor was going. */

/** What the gateway answers when a service's dependency is down (README, "Deadlines"). */
const outage = (route: Route) =>
  route.fulfill({
    status: 503,
    headers: { 'retry-after': '5' },
    json: { error: 'Service temporarily unavailable', code: 'DEPENDENCY_UNAVAILABLE' },
  });

/** The figures of every counter on the page: during an outage none may read as a zero. */
const counters = (page: Page) =>
  page.locator('.stat-value').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));

/** Until the counter shows a number (while its figures load it shows a dash). */
const numberIn = (page: Page, testId: string) =>
  page.waitForFunction(
    (id) => /^\d+$/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    testId,
  );

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * A browser and an admin for the tests of one describe block, started before them; the pages
 * they open are closed after them.
 */
function browserWithAdmin() {
  const browser = useBrowser();
  const suite = {
    admin: { email: '', token: '' },
    /** A fresh page, holding the session of `token` when one is given. */
    page: (token?: string): Promise<Page> =>
      token === undefined ? newPage(browser()) : signedInPage(browser(), token),
  };
  beforeAll(async () => {
    suite.admin = await newAdmin();
  });
  return suite;
}

describe('an outage is not data', () => {
  const suite = browserWithAdmin();

  it('the dashboard says its counters and requests failed, with Retry and no zeros, and Retry recovers', async () => {
    const reader = await verifiedUser('outage-reader');
    const page = await suite.page(reader.token);
    await page.route('**/api/users/stats', outage);
    await page.route('**/api/requests/mine', outage);
    await page.goto('/dashboard');

    const stats = page.getByTestId('stats-failed');
    await stats.waitFor();
    await expect(stats.textContent()).resolves.toContain('We could not load your credits and views.');
    await expect(page.getByTestId('stat-credits').count()).resolves.toBe(0);
    const mine = page.getByTestId('my-requests-failed');
    await mine.waitFor();
    await expect(mine.textContent()).resolves.toContain('We could not load your requests.');
    // Not "you have no requests": nobody knows that during an outage.
    await expect(page.getByTestId('my-requests-empty').count()).resolves.toBe(0);
    await expect(page.getByTestId('subscription-plan').textContent()).resolves.toBe('—');
    expect(await counters(page)).not.toContain('0');
    // The history still answered: a real empty state beside the failures.
    await page.getByTestId('recent-activity-empty').waitFor();
    await screenshot(page, 'outage-dashboard');

    // The service is back: Retry reads again, in place.
    await page.unroute('**/api/users/stats');
    await page.unroute('**/api/requests/mine');
    await page.getByTestId('stats-failed-retry').click();
    await page.getByTestId('my-requests-failed-retry').click();
    await numberIn(page, 'stat-credits');
    await expect(page.getByTestId('stat-credits').textContent()).resolves.toBe('10');
    await page.getByTestId('my-requests-empty').waitFor();
    await expect(stats.count()).resolves.toBe(0);
    await expect(mine.count()).resolves.toBe(0);
    await expect(page.getByTestId('subscription-plan').textContent()).resolves.toBe('Free');
  });

  it('the admin dashboard says its statistics and recent requests failed, and its System Status reads /api/health', async () => {
    const page = await suite.page(suite.admin.token);
    await page.route('**/api/admin/dashboard', outage);
    await page.route('**/api/admin/recent-requests', outage);
    await page.goto('/admin');

    const stats = page.getByTestId('admin-stats-failed');
    await stats.waitFor();
    await expect(stats.textContent()).resolves.toContain('We could not load the statistics.');
    await expect(page.getByTestId('admin-stat-total').count()).resolves.toBe(0);
    const recent = page.getByTestId('recent-requests-failed');
    await recent.waitFor();
    await expect(recent.textContent()).resolves.toContain('We could not load the recent requests.');
    await expect(page.getByTestId('recent-requests-empty').count()).resolves.toBe(0);
    expect(await counters(page)).not.toContain('0');
    // The stack is up: the health answer says so, row by row.
    const database = page.getByTestId('system-status-mongo');
    await database.waitFor();
    await expect(database.getAttribute('data-state')).resolves.toBe('up');
    await expect(database.textContent()).resolves.toContain('Connected');
    await expect(page.getByTestId('system-status-services').textContent()).resolves.toContain('All 6 running');
    await screenshot(page, 'outage-admin-dashboard');

    await page.unroute('**/api/admin/dashboard');
    await page.unroute('**/api/admin/recent-requests');
    await page.getByTestId('admin-stats-failed-retry').click();
    await page.getByTestId('recent-requests-failed-retry').click();
    await numberIn(page, 'admin-stat-total');
    await page.locator('[data-testid="recent-request"], [data-testid="recent-requests-empty"]').first().waitFor();
    await expect(stats.count()).resolves.toBe(0);
    await expect(recent.count()).resolves.toBe(0);
  });

  it('System Status names what /api/health reports down, and says so when health cannot be read', async () => {
    const page = await suite.page(suite.admin.token);
    const up = { mongo: 'up', redis: 'up', kafka: 'up' } as const;
    await page.route('**/api/health', (route) =>
      route.fulfill({
        status: 503,
        json: {
          status: 'degraded',
          services: { auth: 'up', requests: 'down', files: 'up', zipcodes: 'up', leads: 'up', notifications: 'up' },
          dependencies: {
            auth: up,
            requests: { mongo: 'down', redis: 'up', kafka: 'up' },
            files: { ...up, s3: 'up' },
            zipcodes: up,
            leads: up,
            notifications: up,
          },
        },
      }),
    );
    await page.goto('/admin');
    const database = page.getByTestId('system-status-mongo');
    await database.waitFor();
    await expect(database.getAttribute('data-state')).resolves.toBe('down');
    await expect(database.textContent()).resolves.toContain('Down for requests');
    await expect(page.getByTestId('system-status-services').textContent()).resolves.toContain(
      'Not answering: requests',
    );
    await expect(page.getByTestId('system-status-email').getAttribute('data-state')).resolves.toBe('up');
    await screenshot(page, 'outage-system-status-degraded');

    // No answer at all: the block says it could not tell, and claims nothing.
    await page.unroute('**/api/health');
    await page.route('**/api/health', (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByTestId('system-status-failed').waitFor();
    await expect(page.getByTestId('system-status-mongo').count()).resolves.toBe(0);
    await page.unroute('**/api/health');
    await page.getByTestId('system-status-failed-retry').click();
    await expect(page.getByTestId('system-status-mongo').getAttribute('data-state')).resolves.toBe('up');
  });

  it('the admin request page shows a failed load with Retry for an outage, and Request Not Found only for a 404', async () => {
    const address = uniqueAddress('Outage');
    const id = await createRequestViaApi(address);
    const page = await suite.page(suite.admin.token);
    await page.route(`**/api/admin/requests/${id}`, outage);
    await page.goto(`/admin/request/${id}`);
    const failed = page.getByTestId('request-load-error');
    await failed.waitFor();
    await expect(failed.textContent()).resolves.toContain('We could not load this request.');
    await expect(page.getByTestId('request-not-found').count()).resolves.toBe(0);
    await screenshot(page, 'outage-admin-request');

    await page.unroute(`**/api/admin/requests/${id}`);
    await page.getByTestId('request-load-error-retry').click();
    await expect(page.getByTestId('request-address').textContent()).resolves.toBe(address);

    await page.goto('/admin/request/000000000000000000000000');
    await page.getByTestId('request-not-found').waitFor();
    await expect(page.getByTestId('request-load-error').count()).resolves.toBe(0);
  });

  it('the properties list and the report page say they failed, with Retry, instead of an empty list', async () => {
    const reader = await verifiedUser('outage-report');
    const address = uniqueAddress('Outage Report');
    const id = await createRequestViaApi(address);
    await coverViaApi(suite.admin.token, id, address);
    const page = await suite.page(reader.token);

    await page.route('**/api/requests/covered*', outage);
    await page.goto('/properties');
    const list = page.getByTestId('properties-error');
    await list.waitFor();
    await expect(list.textContent()).resolves.toContain('We could not load the reports.');
    await expect(page.getByTestId('properties-empty').count()).resolves.toBe(0);
    await screenshot(page, 'outage-properties');
    await page.unroute('**/api/requests/covered*');
    await page.getByTestId('properties-error-retry').click();
    await page.getByTestId('property-list').waitFor();

    await page.route(`**/api/requests/${id}/view`, outage);
    await page.goto(`/report/${id}`);
    const report = page.getByTestId('report-load-failed');
    await report.waitFor();
    await expect(report.textContent()).resolves.toContain('We could not load this report.');
    await expect(page.getByTestId('report-not-found').count()).resolves.toBe(0);
    await page.unroute(`**/api/requests/${id}/view`);
    await page.getByTestId('report-load-failed-retry').click();
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);
  });
});

describe('back to where you were', () => {
  const suite = browserWithAdmin();

  it('the report link of the ready email, followed signed out, lands on the report after signing in', async () => {
    const reader = await verifiedUser('ready-link');
    const address = uniqueAddress('Ready Link');
    const id = await createRequestViaApi(address, reader.token);
    await coverViaApi(suite.admin.token, id, address);
    const ready = await waitForEmail(reader.email, /report is ready/);
    const link = linkIn(ready, `/report/${id}`);

    const page = await suite.page();
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === `/report/${id}`);
    await screenshot(page, 'login-with-next');
    await signIn(page, reader.email);
    await page.waitForURL((url) => url.pathname === `/report/${id}`);
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);
  });

  it('/login?next=/report/<id> returns to the report after sign-in', async () => {
    const reader = await verifiedUser('next-report');
    const address = uniqueAddress('Next Report');
    const id = await createRequestViaApi(address);
    await coverViaApi(suite.admin.token, id, address);
    const page = await suite.page();
    await page.goto(`/login?next=/report/${id}`);
    await signIn(page, reader.email);
    await page.waitForURL((url) => url.pathname === `/report/${id}`);
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);
  });

  it('an admin page, visited signed out, goes to the admin sign-in and back after it', async () => {
    const address = uniqueAddress('Next Admin');
    const id = await createRequestViaApi(address);
    const page = await suite.page();
    await page.goto(`/admin/request/${id}`);
    await page.waitForURL(
      (url) => url.pathname === '/admin-login' && url.searchParams.get('next') === `/admin/request/${id}`,
    );
    await page.getByTestId('admin-email').fill(suite.admin.email);
    await page.getByTestId('admin-password').fill(PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.waitForURL((url) => url.pathname === `/admin/request/${id}`);
    await expect(page.getByTestId('request-address').textContent()).resolves.toBe(address);
  });

  it('an off-site next is ignored: sign-in goes to /dashboard', async () => {
    const reader = await verifiedUser('next-offsite');
    for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
      const page = await suite.page();
      await page.goto(`/login?${new URLSearchParams({ next }).toString()}`);
      await signIn(page, reader.email);
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByTestId('dashboard-greeting').waitFor();
      expect(new URL(page.url()).host).not.toContain('evil.example');
      await page.context().close();
    }
  });
});
