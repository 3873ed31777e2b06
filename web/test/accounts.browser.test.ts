import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { uniqueEmail } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';

const PASSWORD = 'correct horse battery';

describe('accounts in a browser', () => {
  const browser = useBrowser();

  async function signIn(page: Page, email: string, password: string) {
    await page.goto('/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
  }

  it('registers, verifies by the emailed link, signs in, survives a reload and signs out', async () => {
    const email = uniqueEmail('browser');
    const page = await newPage(browser());

    await page.goto('/register');
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-confirm-password').fill('something else');
    await page.getByTestId('register-submit').click();
    await expect(page.getByText('Passwords do not match').isVisible()).resolves.toBe(true);
    await page.getByTestId('register-confirm-password').fill(PASSWORD);
    await page.getByTestId('register-submit').click();
    await page.getByTestId('register-success').waitFor();
    await screenshot(page, 'register-success');

    // Signing in before verifying is refused with a way to get the email again.
    await signIn(page, email, PASSWORD);
    await page.getByTestId('resend-verification').waitFor();

    const mail = await waitForEmail(email, /verify/i);
    await page.goto(linkIn(mail, '/verify-email?token='));
    await page.getByTestId('verify-success').waitFor();

    await signIn(page, email, PASSWORD);
    await page.waitForURL('**/dashboard');
    await expect(page.getByTestId('dashboard-greeting').textContent()).resolves.toContain(email);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    await page.reload();
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await screenshot(page, 'dashboard-signed-in');

    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/dashboard');
    await page.context().close();
  });

  it('shows the server’s message for a wrong password and clears it when the user edits a field', async () => {
    const page = await newPage(browser());
    await signIn(page, uniqueEmail('nobody'), 'wrong password');
    const error = page.getByTestId('login-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toMatch(/Invalid email or password/);
    await page.getByTestId('login-password').fill('another try');
    await error.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('lets an admin created with the command sign in at /admin-login and land on /admin', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const page = await newPage(browser());
    await page.goto('/admin-login');
    // Pages are lazy-loaded: wait for the heading rather than testing it at once.
    await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
    await page.getByTestId('admin-email').fill(email);
    await page.getByTestId('admin-password').fill(PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.waitForURL('**/admin');
    await expect(page.getByTestId('admin-user-email').textContent()).resolves.toContain(email);
    await screenshot(page, 'admin-signed-in');
    await page.context().close();
  });

  it('refuses a normal user at /admin-login and sends them away from /admin', async () => {
    const email = uniqueEmail('plain');
    const page = await newPage(browser());
    // Register and verify through the API and the email, as the first test does in the UI.
    const res = await page.request.post('/api/auth/register', { data: { email, password: PASSWORD } });
    expect(res.status()).toBe(201);
    const mail = await waitForEmail(email, /verify/i);
    const token = tokenOf(linkIn(mail, '/verify-email?token='));
    expect((await page.request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);

    await page.goto('/admin-login');
    await page.getByTestId('admin-email').fill(email);
    await page.getByTestId('admin-password').fill(PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('admin-login-error').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin-login');

    await signIn(page, email, PASSWORD);
    await page.waitForURL('**/dashboard');
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/admin-login' && url.searchParams.get('next') === '/admin');
    await page.context().close();
  });
});
