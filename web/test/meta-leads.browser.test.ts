import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, uniqueEmail } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import { GraphStandIn, metaSignature } from '../../test/support/meta.js';

// A lead from Meta Lead Ads in the admin's Leads tab, with Meta as its source (issue 25).

const PASSWORD = 'correct horse battery';
const graph = new GraphStandIn();
const browser = useBrowser();

beforeAll(async () => {
  await graph.start(testEnv().meta.graphPort);
});
afterAll(async () => {
  await graph.stop();
});

describe('Meta Lead Ads in the Leads tab', () => {
  it('shows a lead Meta delivered, with the Meta key as its source, and filters by it', async () => {
    const meta = testEnv().meta;
    const leadgenId = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const email = `${randomUUID().slice(0, 8)}@meta-lead.example`;
    graph.answer(leadgenId, {
      kind: 'lead',
      fieldData: [
        { name: 'full_name', values: ['Morgan Meta'] },
        { name: 'email', values: [email] },
        { name: 'phone_number', values: ['+15555550199'] },
      ],
    });
    const text = JSON.stringify({
      object: 'page',
      entry: [{ id: '1', time: 1, changes: [{ field: 'leadgen', value: { leadgen_id: leadgenId, form_id: '42' } }] }],
    });
    const delivered = await api('POST', '/api/webhooks/meta', {
      raw: text,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(text, meta.appSecret) },
    });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);

    const page = await newPage(browser());
    const adminEmail = uniqueEmail('meta-admin');
    expect((await createAdmin(adminEmail, PASSWORD)).code).toBe(0);
    await page.goto('/admin-login');
    await page.getByTestId('admin-email').fill(adminEmail);
    await page.getByTestId('admin-password').fill(PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.waitForURL('**/admin');

    // The Meta key is among the keys, and the Leads tab filters by it.
    await page.locator(`[data-testid="webhook-key-row"][data-key-name="${meta.keyName}"]`).waitFor();
    await page.getByTestId('webhook-tab-leads').click();
    await page.getByTestId('leads-tab').waitFor();
    await page.getByTestId('lead-key-filter').selectOption(meta.keyName);
    const lead = page.locator(`[data-testid="lead-row"][data-lead-id="${leadgenId}"]`);
    await lead.waitFor();
    expect(await lead.getByTestId('lead-name').textContent()).toBe('Morgan Meta');
    const source = lead.locator('dt', { hasText: 'Source' }).locator('xpath=following-sibling::dd');
    expect(await source.textContent()).toBe(meta.keyName);
    const rowText = (await lead.textContent()) ?? '';
    for (const part of [email, '+15555550199', leadgenId]) expect(rowText).toContain(part);
    await screenshot(page, 'leads-tab-meta-lead');
  });
});
