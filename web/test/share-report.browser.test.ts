import { describe, expect, it } from 'vitest';
import { PHONE, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { PASSWORD, coverViaApi, createRequestViaApi, newAdmin, uniqueAddress, verifiedUser } from './fixtures.js';

describe('sharing a report in a browser', () => {
  const browser = useBrowser();

  it('a reader shares a report they opened; a fresh browser sees it without an account, until it is revoked', async () => {
    const admin = await newAdmin();
    const address = uniqueAddress('Shared');
    const id = await createRequestViaApi(address);
    await coverViaApi(admin.token, id, address);
    const reader = await verifiedUser('sharer');

    // Sign in and open the report (the open spends the credit that makes it shareable).
    const page = await newPage(browser());
    await page.goto(`/login?next=/report/${id}`);
    await page.getByTestId('login-email').fill(reader.email);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(`**/report/${id}`);
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);

    await page.getByTestId('share-create').click();
    const urlField = page.getByTestId('share-url');
    await urlField.waitFor();
    const shareUrl = await urlField.inputValue();
    expect(new URL(shareUrl).pathname).toMatch(/^\/shared\/[A-Za-z0-9_.-]+$/);
    await expect(page.getByTestId('share-report').textContent()).resolves.toMatch(/without an account, until/);
    await page.getByTestId('share-copy').waitFor();
    await screenshot(page, 'share-link-created');
    // On a phone the link, Copy and Revoke wrap under the title instead of running off the screen.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'share-link-created-phone');

    // Someone else's browser: no session, nothing stored.
    const visitor = await newPage(browser());
    await visitor.goto(shareUrl);
    await visitor.getByTestId('shared-report').waitFor();
    await expect(visitor.getByTestId('report-address').textContent()).resolves.toBe(address);
    expect(await visitor.getByTestId('share-create').count()).toBe(0);
    expect(await visitor.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const document = visitor.getByTestId('report-section-report');
    const href = await document.getAttribute('href');
    expect(href).toMatch(/^\/api\/files\/.+signature=/);
    // The document opens for the visitor too (a signed link, no Authorization header).
    const file = await visitor.request.get(href as string);
    expect(file.status()).toBe(200);
    expect((await file.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await screenshot(visitor, 'shared-report');

    // Revoked: the same link now says so, in the visitor's browser.
    await page.getByTestId('share-revoke').click();
    await page.getByTestId('share-revoked').waitFor();
    await page.getByTestId('share-create').waitFor();
    await visitor.reload();
    await visitor.getByTestId('shared-report-gone').waitFor();
    await expect(visitor.locator('h1').textContent()).resolves.toBe('This link was revoked or has expired');
    await screenshot(visitor, 'shared-report-revoked');
  });

  it('a link that is not one of ours says it leads to no report', async () => {
    const visitor = await newPage(browser());
    await visitor.goto('/shared/not-a-real-token');
    await visitor.getByTestId('shared-report-not-found').waitFor();
    expect(await visitor.getByTestId('shared-report-gone').count()).toBe(0);
  });
});
