import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import {
  coverViaApi,
  createRequestViaApi,
  newAdmin,
  pdfBytes,
  signedInPage,
  uniqueAddress,
  verifiedUser,
} from './fixtures.js';

/** A covered request with its main report, made the way staff would, through the API. */
async function coveredReportViaApi(admin: string, address: string): Promise<string> {
  const id = await createRequestViaApi(address);
  await coverViaApi(admin, id, address);
  return id;
}

/** A counter's value once it has one: while its figures load a counter shows a dash, not 0. */
async function counter(page: Page, testId: string): Promise<number> {
  await page.waitForFunction(
    (id) => /^\d+$/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    testId,
  );
  return Number(await page.getByTestId(testId).textContent());
}

/** Drops files on an element the way a browser does: a DataTransfer holding real File objects. */
async function dropFiles(page: Page, testId: string, files: { name: string; bytes: Buffer }[]) {
  await page.getByTestId(testId).evaluate(
    (target, list) => {
      const transfer = new DataTransfer();
      for (const file of list) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: 'application/pdf' }));
      }
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    },
    files.map((file) => ({ name: file.name, base64: file.bytes.toString('base64') })),
  );
}

describe('coverage requests and reports in a browser', () => {
  const browser = useBrowser();
  let admin: string;

  beforeAll(async () => {
    admin = (await newAdmin()).token;
  });

  it('a visitor requests coverage without an account and gets the success panel with the next steps', async () => {
    const page = await newPage(browser());
    const address = uniqueAddress('Visitor');

    await page.goto('/request');
    const submit = page.getByTestId('request-submit');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await page.getByTestId('request-address').fill('   ');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await page.getByTestId('request-address').fill(address);
    await page.getByTestId('request-url').fill('https://listings.example.test/home/1');
    await page.getByTestId('request-notes').fill('Interested in rental potential');
    await expect(submit.isEnabled()).resolves.toBe(true);
    await screenshot(page, 'request-form');
    await submit.click();

    const success = page.getByTestId('request-success');
    await success.waitFor();
    const text = await success.textContent();
    expect(text).toContain('Request Submitted Successfully!');
    expect(text).toContain('What happens next?');
    expect(await success.locator('ol > li').count()).toBe(4);
    await expect(page.getByTestId('request-return-home').textContent()).resolves.toContain('Return to Home');
    await expect(page.getByTestId('request-browse').textContent()).resolves.toContain('Browse Existing Reports');
    await screenshot(page, 'request-success');

    // The request reached the service: staff see it at the top of the recent requests.
    const recent = await api<{ requests: { address: string; status: string }[] }>('GET', '/api/admin/recent-requests', {
      token: admin,
    });
    expect(recent.body.requests.find((r) => r.address === address)?.status).toBe('requested');

    // The same address again is accepted; an anonymous visitor is not told someone asked before.
    await page.goto('/request');
    await page.getByTestId('request-address').fill(address);
    await page.getByTestId('request-submit').click();
    await page.getByTestId('request-success').waitFor();
    expect(await page.getByTestId('request-repeat').count()).toBe(0);
  });

  it('a signed-in user asking again for their own property within 30 days is told when they asked, with a link', async () => {
    const user = await verifiedUser();
    const address = uniqueAddress('Again');
    await createRequestViaApi(address, user.token);
    const page = await signedInPage(browser(), user.token);
    await page.goto('/request');
    await page.getByTestId('request-address').fill(address.toUpperCase());
    await page.getByTestId('request-submit').click();
    await page.getByTestId('request-repeat').waitFor();
    expect(await page.getByTestId('request-repeat-text').textContent()).toMatch(
      /^You asked about this property on [A-Z][a-z]+ \d{1,2}, \d{4}/,
    );
    expect(await page.getByTestId('request-repeat-link').getAttribute('href')).toBe('/dashboard');
    expect(await page.getByTestId('request-success').count()).toBe(0);
    await screenshot(page, 'request-repeat');
  });

  it('an admin moves a request to Covered and uploads two files by drag and drop', async () => {
    const address = uniqueAddress('Admin');
    const id = await createRequestViaApi(address);
    const page = await signedInPage(browser(), admin);

    await page.goto('/admin');
    const row = page.locator(`[data-testid="recent-request"][data-id="${id}"]`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Requested');
    await page.getByTestId('system-status').waitFor();
    await screenshot(page, 'admin-dashboard');
    const completedBefore = await counter(page, 'admin-stat-completed');

    await row.getByTestId('view-details').click();
    await page.waitForURL(`**/admin/request/${id}`);
    await page.getByTestId('request-information').waitFor();
    await expect(page.getByTestId('request-status').textContent()).resolves.toBe('Requested');
    await expect(page.getByTestId('request-created').textContent()).resolves.toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}/);
    expect(await page.getByTestId('current-files').count()).toBe(0);

    // No report file yet: Covered is refused before the click, and says why.
    await expect(page.getByTestId('status-covered').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('covered-needs-report').textContent()).resolves.toMatch(/main report file/i);
    await screenshot(page, 'admin-request-needs-report');

    await dropFiles(page, 'upload-dropzone', [
      { name: 'Main Property Report.pdf', bytes: pdfBytes('Main report') },
      { name: 'Investment-Strategy.PDF', bytes: pdfBytes('Strategy') },
    ]);
    await page.getByTestId('action-success').waitFor({ timeout: 30_000 });
    await page.getByTestId('current-file-report').waitFor();
    await page.getByTestId('current-file-strategy').waitFor();
    expect(await page.getByTestId('current-file-school_report').count()).toBe(0);
    await expect(page.getByTestId('current-file-report').getAttribute('target')).resolves.toBe('_blank');
    await screenshot(page, 'admin-request-files');

    // The upload banner stays about 5 seconds, longer than the status banner's 3.
    const shown = Date.now();
    await page.getByTestId('action-success').waitFor({ state: 'detached', timeout: 8_000 });
    expect(Date.now() - shown).toBeGreaterThan(3_000);

    expect(await page.getByTestId('covered-needs-report').count()).toBe(0);
    await page.getByTestId('status-covered').click();
    const banner = page.getByTestId('action-success');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('Action completed successfully!');
    await eventually(async () => (await page.getByTestId('request-status').textContent()) === 'Covered');
    await page.getByTestId('view-on-properties').waitFor();
    await screenshot(page, 'admin-request-covered');
    await banner.waitFor({ state: 'detached', timeout: 6_000 });

    // A file with the wrong extension is not sent.
    await dropFiles(page, 'upload-dropzone', [{ name: 'notes.txt', bytes: Buffer.from('plain text') }]);
    await page.getByTestId('upload-refused').waitFor();

    const stored = await api('GET', `/api/admin/requests/${id}`, { token: admin });
    expect(stored.body.status).toBe('covered');
    expect(stored.body.report_path).toBeTruthy();
    expect(stored.body.strategy_path).toBeTruthy();
    expect(stored.body.school_report_path).toBeNull();

    await page.getByTestId('back-to-dashboard').first().click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await eventually(async () => (await counter(page, 'admin-stat-completed')) > completedBefore);
  });

  it('a reader opens /properties, opens the report and a document in a new tab, and the dashboard counters move', async () => {
    const address = uniqueAddress('Reader');
    const id = await coveredReportViaApi(admin, address);
    const reader = await verifiedUser();

    // A visitor gets the unlock dialog instead of the report.
    const visitor = await newPage(browser());
    await visitor.goto('/properties');
    const visitorCard = visitor.locator(`[data-testid="property-card"][data-id="${id}"]`);
    await visitorCard.waitFor();
    await screenshot(visitor, 'properties');
    await visitorCard.getByTestId('view-full-report').click();
    const dialog = visitor.getByTestId('unlock-modal');
    await dialog.waitFor();
    await expect(visitor.getByTestId('unlock-address').textContent()).resolves.toBe(address);
    await expect(dialog.textContent()).resolves.toContain('Unlock Full Property Report');
    await screenshot(visitor, 'properties-unlock-modal');
    await visitor.getByTestId('modal-close').click();
    await dialog.waitFor({ state: 'detached' });

    const page = await signedInPage(browser(), reader.token);
    await page.goto('/dashboard');
    await page.getByTestId('dashboard-greeting').waitFor();
    await eventually(async () => (await counter(page, 'stat-credits')) === 10);
    expect(await counter(page, 'stat-views')).toBe(0);
    expect(await counter(page, 'stat-unique')).toBe(0);
    await page.getByTestId('recent-activity-empty').waitFor();
    await screenshot(page, 'dashboard-before');

    await page.goto('/properties');
    const card = page.locator(`[data-testid="property-card"][data-id="${id}"]`);
    await card.getByTestId('view-full-report').click();
    await page.waitForURL(`**/report/${id}`);
    await page.getByTestId('report').waitFor();
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);
    await page.getByTestId('report-completed-badge').waitFor();
    expect(await page.getByTestId('report-section-strategy').count()).toBe(0);
    await screenshot(page, 'report');

    const link = page.getByTestId('report-section-report');
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/api\/files\//);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    expect(tab).toBeTruthy();
    // The signed link works without an Authorization header and serves the PDF itself.
    const download = await fetch(`${testEnv().gatewayUrl}${href}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('application/pdf');
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await tab.close();

    await page.goto('/dashboard');
    await eventually(async () => (await counter(page, 'stat-credits')) === 9, 10_000, 'credits to drop to 9');
    expect(await counter(page, 'stat-views')).toBe(1);
    expect(await counter(page, 'stat-unique')).toBe(1);
    const entry = page.getByTestId('activity-entry').first();
    await expect(entry.textContent()).resolves.toContain(address);
    await screenshot(page, 'dashboard-after');

    // Reopening the same report is free: views count, credits do not move.
    await entry.getByRole('link', { name: 'View Report' }).click();
    await page.getByTestId('report').waitFor();
    await page.goto('/dashboard');
    await eventually(async () => (await counter(page, 'stat-views')) === 2, 10_000, 'views to reach 2');
    expect(await counter(page, 'stat-credits')).toBe(9);
    expect(await counter(page, 'stat-unique')).toBe(1);
  });

  it('a signed-in user sees their own requests on the dashboard with live status', async () => {
    const reader = await verifiedUser();
    const page = await signedInPage(browser(), reader.token);
    const address = uniqueAddress('Mine');

    await page.goto('/request');
    await page.getByTestId('request-address').fill(address);
    await page.getByTestId('request-submit').click();
    await page.getByTestId('request-success').waitFor();

    await page.goto('/dashboard');
    const row = page.getByTestId('my-request').filter({ hasText: address });
    await row.waitFor();
    await expect(row.getByTestId('my-request-status').textContent()).resolves.toBe('Requested');

    const id = await row.getAttribute('data-id');
    expect(
      (await api('PUT', `/api/admin/requests/${id}/status`, { body: { status: 'in_progress' }, token: admin })).status,
    ).toBe(200);
    // Coming back to the tab refetches; no reload needed.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await eventually(
      async () => (await row.getByTestId('my-request-status').textContent()) === 'In Progress',
      35_000,
      'the status to turn In Progress',
    );
    await screenshot(page, 'dashboard-my-requests');
  });

  it("shows 'Report Not Found' for a report that is not covered and 'Request Not Found' to staff for an unknown id", async () => {
    const reader = await verifiedUser();
    const id = await createRequestViaApi(uniqueAddress('Pending'));
    const page = await signedInPage(browser(), reader.token);
    await page.goto(`/report/${id}`);
    await page.getByTestId('report-not-found').waitFor();
    await screenshot(page, 'report-not-found');

    const staff = await signedInPage(browser(), admin);
    await staff.goto('/admin/request/000000000000000000000000');
    await staff.getByTestId('request-not-found').waitFor();
    await screenshot(staff, 'admin-request-not-found');
  });
});
