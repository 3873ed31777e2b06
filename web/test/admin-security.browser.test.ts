import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { uniqueEmail } from '../../test/support/api.js';
import { newPage, openBrowser } from '../../test/support/browser.js';

const PASSWORD = 'correct horse battery';

describe('admin sign-in security in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps an admin’s token in this tab only (sessionStorage): a reload keeps it, a new tab does not have it', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const page = await newPage(browser);
    await page.goto('/admin-login');
    await page.getByTestId('admin-email').fill(email);
    await page.getByTestId('admin-password').fill(PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.waitForURL('**/admin');
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await page.reload();
    await expect(page.getByTestId('admin-user-email').textContent()).resolves.toContain(email);

    const other = await page.context().newPage();
    await other.goto('/admin');
    await other.waitForURL((url) => url.pathname === '/admin-login');
    await page.context().close();
  });
});
