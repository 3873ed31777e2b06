import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, eventually, uniqueEmail } from '../../test/support/api.js';
import { PHONE, SCREENSHOT_DIR, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';

const PASSWORD = 'correct horse battery';

/** Signs in a fresh admin through /admin-login and waits for the Webhook Management section. */
async function signInAsAdmin(page: Page): Promise<void> {
  const email = uniqueEmail('leads-admin');
  expect((await createAdmin(email, PASSWORD)).code).toBe(0);
  await page.goto('/admin-login');
  await page.getByTestId('admin-email').fill(email);
  await page.getByTestId('admin-password').fill(PASSWORD);
  await page.getByTestId('admin-login-submit').click();
  await page.waitForURL('**/admin');
  await page.getByTestId('webhook-keys-tab').waitFor();
}

/** A counter's value once it has one: while its figures load a counter shows a dash, not 0. */
async function statValue(page: Page, testId: string): Promise<number> {
  await page.waitForFunction(
    (id) => /^\d+$/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    testId,
  );
  return Number(await page.getByTestId(testId).textContent());
}

describe('Webhook Management in a browser', () => {
  const browser = useBrowser();

  it('an admin creates a key, copies it, a lead posted with it appears, and marking it qualified moves the counter', async () => {
    const page = await newPage(browser());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: testEnv().gatewayUrl });
    await signInAsAdmin(page);

    // The button stays disabled while the name is blank.
    const create = page.getByTestId('create-webhook-key');
    expect(await create.isDisabled()).toBe(true);
    await page.getByTestId('webhook-key-name').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    const keyName = `Google Ads ${randomUUID().slice(0, 6)}`;
    await page.getByTestId('webhook-key-name').fill(keyName);
    await create.click();

    const created = page.getByTestId('created-key');
    await created.waitFor();
    expect(await page.getByTestId('webhook-key-warning').textContent()).toBe(
      "Save this key securely. It won't be shown again.",
    );
    expect(await page.getByTestId('created-webhook-url').textContent()).toBe(
      `${testEnv().gatewayUrl}/api/webhooks/leads`,
    );
    const shownKey = (await page.getByTestId('created-webhook-key').textContent()) ?? '';
    expect(shownKey).toMatch(/^whk_/);
    await page.getByTestId('copy-webhook-key').click();
    await page.getByTestId('copy-webhook-key').getByText('Copied').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shownKey);
    await page.getByTestId('copy-webhook-url').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${testEnv().gatewayUrl}/api/webhooks/leads`,
    );

    // The new key is listed, active, never used.
    const row = page.locator(`[data-testid="webhook-key-row"][data-key-name="${keyName}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Last used never');
    expect(await row.getByTestId('webhook-key-toggle').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'leads-key-created');

    // An ad platform posts a lead with the copied key.
    const leadId = `browser-${randomUUID()}`;
    const posted = await api('POST', '/api/webhooks/leads', {
      headers: { 'x-webhook-key': copied },
      body: {
        lead_id: leadId,
        first_name: 'Avery',
        last_name: `Browser ${leadId.slice(-6)}`,
        email: 'avery@example.com',
        phone: '+1 555-0142',
        campaign_id: 'spring-2026',
        ad_group_id: 'homes-austin',
      },
    });
    expect(posted.status).toBe(200);

    await page.getByTestId('webhook-tab-leads').click();
    await page.getByTestId('leads-tab').waitFor();
    await page.getByTestId('lead-key-filter').selectOption(keyName);
    const lead = page.locator(`[data-testid="lead-row"][data-lead-id="${leadId}"]`);
    await lead.waitFor();
    const text = (await lead.textContent()) ?? '';
    for (const part of ['Avery', 'avery@example.com', '+1 555-0142', 'spring-2026', 'homes-austin', keyName, leadId]) {
      expect(text).toContain(part);
    }
    expect(await lead.getByTestId('lead-status-badge').textContent()).toBe('New');
    expect(await statValue(page, 'leads-total')).toBeGreaterThanOrEqual(1);
    const qualifiedBefore = await statValue(page, 'lead-stat-qualified');
    const newBefore = await statValue(page, 'lead-stat-new');
    await screenshot(page, 'leads-tab-new-lead');

    await lead.getByTestId('lead-status-select').selectOption('qualified');
    await eventually(
      async () => (await lead.getByTestId('lead-status-badge').textContent()) === 'Qualified',
      10_000,
      'the Qualified badge',
    );
    await eventually(
      async () => (await statValue(page, 'lead-stat-qualified')) === qualifiedBefore + 1,
      10_000,
      'the Qualified counter to move',
    );
    expect(await statValue(page, 'lead-stat-new')).toBe(newBefore - 1);
    expect(await lead.textContent()).toContain('Status set');

    // The key was used: the Webhook Keys tab says when.
    await page.getByTestId('webhook-tab-keys').click();
    await row.waitFor();
    expect(await row.textContent()).not.toContain('Last used never');

    // Filtered by status, then downloaded as CSV.
    await page.getByTestId('webhook-tab-leads').click();
    await page.getByTestId('lead-key-filter').selectOption(keyName);
    await page.getByTestId('lead-status-filter').selectOption('qualified');
    await lead.waitFor();
    await screenshot(page, 'leads-tab-qualified');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('lead-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^leads-.*\.csv$/);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv).toContain(leadId);
    expect(csv.split('\r\n')[0]).toContain('lead_id');
    await page.getByTestId('lead-status-filter').selectOption('converted');
    expect(await page.getByTestId('leads-empty').textContent()).toBe('No leads match these filters.');

    // Switching the key off.
    await page.getByTestId('webhook-tab-keys').click();
    await row.getByTestId('webhook-key-toggle').click();
    await eventually(
      async () => (await row.getByTestId('webhook-key-toggle').getAttribute('aria-checked')) === 'false',
      10_000,
      'the key to show as inactive',
    );
    expect(await row.textContent()).toContain('Inactive');
    const refused = await api('POST', '/api/webhooks/leads', {
      headers: { 'x-webhook-key': copied },
      body: { lead_id: `${leadId}-2`, email: 'x@example.com' },
    });
    expect(refused.status).toBe(401);
    await page.context().close();
  });

  it('shows the empty texts, and a failed counters call says so with Retry instead of zeros', async () => {
    const page = await newPage(browser());
    // Empty lists from the server, as on a fresh install.
    await page.route('**/api/admin/webhook-keys', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ json: { keys: [], webhook_url: `${testEnv().gatewayUrl}/api/webhooks/leads` } })
        : route.continue(),
    );
    await page.route('**/api/admin/leads?*', (route) => route.fulfill({ json: { leads: [], next_cursor: null } }));
    await page.route('**/api/admin/leads', (route) => route.fulfill({ json: { leads: [], next_cursor: null } }));
    await page.route('**/api/admin/leads/stats', (route) => route.fulfill({ status: 500, json: { error: 'down' } }));
    await signInAsAdmin(page);

    expect(await page.getByTestId('webhook-keys-empty').textContent()).toBe('No webhook keys created yet.');
    expect(await page.getByTestId('create-webhook-key').isDisabled()).toBe(true);
    await screenshot(page, 'leads-keys-empty');
    await page.getByTestId('webhook-tab-leads').click();
    expect(await page.getByTestId('leads-empty').textContent()).toBe('No leads received yet.');
    // The counters call failed: said in words, with Retry, and no zero stands in for a figure.
    const failed = page.getByTestId('lead-stats-failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('We could not load the lead counters.');
    expect(await page.getByTestId('lead-stat-qualified').count()).toBe(0);
    expect(await page.getByTestId('leads-total').count()).toBe(0);
    await screenshot(page, 'leads-empty');

    // The service is back: Retry reads the counters, and the tab shows its count again.
    await page.unroute('**/api/admin/leads/stats');
    await page.getByTestId('lead-stats-failed-retry').click();
    expect(await statValue(page, 'lead-stat-qualified')).toBeGreaterThanOrEqual(0);
    await failed.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('fits a phone screen', async () => {
    const page = await newPage(browser(), PHONE);
    await signInAsAdmin(page);
    await page.getByTestId('webhook-key-name').fill(`Phone ${randomUUID().slice(0, 6)}`);
    await page.getByTestId('create-webhook-key').click();
    await page.getByTestId('created-key').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('webhook-management').screenshot({ path: join(SCREENSHOT_DIR, 'leads-phone-keys.png') });
    await page.getByTestId('webhook-tab-leads').click();
    await page.getByTestId('leads-tab').waitFor();
    await page.getByTestId('webhook-management').screenshot({ path: join(SCREENSHOT_DIR, 'leads-phone-leads.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.context().close();
  });
});
