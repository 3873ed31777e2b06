import { readFile } from 'node:fs/promises';
import type { AccountExport } from '@homereport/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, uniqueEmail } from '../../test/support/api.js';
import { PHONE, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase 7';

/** A registered account whose address is verified, made through the API as the emails would. */
async function verifiedAccount(): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('settings');
  expect((await api('POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
  const token = tokenOf(linkIn(await waitForEmail(email, /verify/i), '/verify-email?token='));
  expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
  return { email, password: PASSWORD };
}

async function apiSignIn(email: string, password: string) {
  return api<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/dashboard');
}

describe('the settings page', () => {
  const browser = useBrowser();

  it('is reached from the dashboard and the header, and changes the password, signing out other sessions', async () => {
    const account = await verifiedAccount();
    const page = await newPage(browser());
    await signIn(page, account.email, account.password);
    const elsewhere = (await apiSignIn(account.email, account.password)).body.token;

    // The header offers Settings to a signed-in visitor; the dashboard's tile leads there.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Settings' }).count()).resolves.toBe(1);
    await page.getByTestId('profile-settings').click();
    await page.waitForURL('**/settings');
    await expect(page.getByTestId('settings-email').textContent()).resolves.toContain(account.email);
    await screenshot(page, 'settings');

    // A wrong current password is said so, and the session stays.
    await page.getByTestId('current-password').fill('not my password');
    await page.getByTestId('new-password').fill(NEW_PASSWORD);
    await page.getByTestId('new-confirm-password').fill(NEW_PASSWORD);
    await page.getByTestId('change-password-submit').click();
    await expect(page.getByTestId('change-password-error').textContent()).resolves.toContain(
      'Your current password is incorrect.',
    );
    await expect(page.getByTestId('current-password').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(new URL(page.url()).pathname).toBe('/settings');
    await expect(page.getByTestId('session-notice').count()).resolves.toBe(0);

    // The confirmation must match before anything is sent.
    await page.getByTestId('current-password').fill(account.password);
    await page.getByTestId('new-confirm-password').fill('something else');
    await page.getByTestId('change-password-submit').click();
    await expect(page.getByTestId('change-password-error').textContent()).resolves.toMatch(/do not match/i);

    // The current password again is no change: said so, before anything is sent.
    await page.getByTestId('new-password').fill(account.password);
    await page.getByTestId('new-confirm-password').fill(account.password);
    await page.getByTestId('change-password-submit').click();
    await expect(page.getByTestId('change-password-error').textContent()).resolves.toContain(
      'Your new password must be different from your current one.',
    );

    await page.getByTestId('new-password').fill(NEW_PASSWORD);
    await page.getByTestId('new-confirm-password').fill(NEW_PASSWORD);
    await page.getByTestId('change-password-submit').click();
    await expect(page.getByTestId('change-password-success').textContent()).resolves.toMatch(
      /password has been changed/i,
    );
    await expect(page.getByTestId('current-password').inputValue()).resolves.toBe('');
    await screenshot(page, 'settings-password-changed');

    expect((await api('GET', '/api/auth/me', { token: elsewhere })).status).toBe(401);
    expect((await apiSignIn(account.email, account.password)).status).toBe(401);
    expect((await apiSignIn(account.email, NEW_PASSWORD)).status).toBe(200);
    // This tab is still signed in.
    await page.reload();
    await page.getByTestId('settings-email').waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');
  });

  it('downloads the user’s data as homereport-data.json', async () => {
    const account = await verifiedAccount();
    const page = await newPage(browser());
    await signIn(page, account.email, account.password);
    await page.goto('/settings');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-data-button').click(),
    ]);
    expect(download.suggestedFilename()).toBe('homereport-data.json');
    const path = await download.path();
    const data = JSON.parse(await readFile(path, 'utf8')) as AccountExport;
    expect(data.user.email).toBe(account.email);
    expect(data).toMatchObject({ requests: [], access_history: [], credits: { credits: 10 } });
    await page.getByTestId('download-data-success').waitFor();
  });

  it('deletes the account after the password and an explicit confirmation, then lands home signed out', async () => {
    const account = await verifiedAccount();
    const page = await newPage(browser(), PHONE);
    await signIn(page, account.email, account.password);
    await page.goto('/settings');
    await page.getByTestId('settings-email').waitFor();
    // The header with Settings fits a phone: nothing scrolls sideways.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);

    await page.getByTestId('delete-account-start').click();
    await page.getByTestId('delete-password').fill('not my password');
    // Not confirmed yet: nothing is sent.
    await page.getByTestId('delete-account-submit').click();
    await expect(page.getByTestId('delete-account-error').textContent()).resolves.toMatch(/tick the box/i);

    await page.getByTestId('delete-account-confirm').check();
    await page.getByTestId('delete-account-submit').click();
    await expect(page.getByTestId('delete-account-error').textContent()).resolves.toContain(
      'The password is incorrect.',
    );
    expect(new URL(page.url()).pathname).toBe('/settings');
    await screenshot(page, 'settings-delete-account-phone');

    await page.getByTestId('delete-password').fill(account.password);
    await page.getByTestId('delete-account-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByTestId('session-notice').textContent()).resolves.toContain('Your account has been deleted');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await screenshot(page, 'settings-account-deleted');

    expect((await apiSignIn(account.email, account.password)).status).toBe(401);
    // A signed-out visit to the settings page asks to sign in.
    await page.goto('/settings');
    await page.waitForURL('**/login?next=%2Fsettings');
  });
});
