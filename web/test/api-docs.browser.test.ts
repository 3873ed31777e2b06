import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import { axeViolations, isSerious, violationLine } from './axe.js';

// The API reference as an integrator sees it: /api/docs renders the merged OpenAPI document with
// files the gateway serves itself, under its page CSP, and nothing is fetched from elsewhere.

const browser = useBrowser();

describe('the API reference page', () => {
  it('shows the lead webhook, with its payload example, loading nothing from another origin', async () => {
    const page = await newPage(browser());
    const origin = new URL(testEnv().gatewayUrl).origin;
    const elsewhere: string[] = [];
    const blocked: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(origin) && !req.url().startsWith('data:')) elsewhere.push(req.url());
    });
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) blocked.push(msg.text());
    });
    page.on('pageerror', (err) => blocked.push(String(err)));

    await page.goto('/api/docs');
    const webhook = page.locator('.opblock-post', { hasText: '/api/webhooks/leads' }).first();
    await webhook.waitFor({ timeout: 30_000 });
    await expect(page.title()).resolves.toBe('HomeReport API reference');
    await expect(page.locator('.info .title').first().textContent()).resolves.toContain('HomeReport API');

    // Opened, it shows the payload example an integrator copies.
    await webhook.locator('.opblock-summary').click();
    await expect(webhook.locator('.body-param__example, .example, .microlight').first().textContent()).resolves.toMatch(
      /lead_id/,
    );
    // The opened operation on its own (the whole page is several screens tall), then the page.
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await webhook.screenshot({ path: join(SCREENSHOT_DIR, 'api-docs-lead-webhook.png') });
    await screenshot(page, 'api-docs');

    // Admin calls have their own section.
    await expect(page.locator('.opblock-tag', { hasText: /^admin/ }).count()).resolves.toBe(1);
    expect(elsewhere).toEqual([]);
    expect(blocked).toEqual([]);
    await page.context().close();
  });

  it('passes axe like every other page: no serious or critical violation, closed, opened and trying a call', async () => {
    const page = await newPage(browser());
    await page.goto('/api/docs');
    const webhook = page.locator('.opblock-post', { hasText: '/api/webhooks/leads' }).first();
    await webhook.waitFor({ timeout: 30_000 });
    const closed = (await axeViolations(page)).filter(isSerious).map(violationLine);
    await webhook.locator('.opblock-summary').first().click();
    await webhook.locator('.opblock-body').waitFor();
    const opened = (await axeViolations(page)).filter(isSerious).map(violationLine);
    // "Try it out": the body's text area, the examples list, Execute and Cancel.
    await webhook.locator('.try-out__btn').click();
    await webhook.locator('textarea.body-param__text').waitFor();
    const trying = (await axeViolations(page)).filter(isSerious).map(violationLine);
    await screenshot(page, 'api-docs-axe');
    expect(closed, closed.join('\n')).toEqual([]);
    expect(opened, opened.join('\n')).toEqual([]);
    expect(trying, trying.join('\n')).toEqual([]);
    await page.context().close();
  });
});
