import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, uniqueEmail } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';

// The account screens as a new user meets them (issue 9, "Account screens").

const PASSWORD = 'correct horse battery';

/** A verified account, made through the API and the emailed link. */
async function verifiedAccount(): Promise<string> {
  const email = uniqueEmail('screens');
  expect((await api('POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
  const token = tokenOf(linkIn(await waitForEmail(email, /verify/i), '/verify-email?token='));
  expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
  return email;
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

describe('account screens', () => {
  const browser = useBrowser();

  it('an admin who signs in at /login lands on /admin', async () => {
    const email = uniqueEmail('admin-at-login');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const page = await newPage(browser());
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.context().close();
  });

  it('an address the browser accepts but no mail server could (a@b) gets a sentence, and the field is marked and linked to it', async () => {
    const page = await newPage(browser());
    await page.goto('/register');
    await page.getByTestId('register-email').fill('a@b');
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-confirm-password').fill(PASSWORD);
    await page.getByTestId('register-submit').click();
    const error = page.getByTestId('register-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('Please enter a valid email address, such as name@example.com.');
    const field = page.getByTestId('register-email');
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    const describedBy = await field.getAttribute('aria-describedby');
    await expect(page.locator(`#${describedBy}`).textContent()).resolves.toContain('valid email address');
    await screenshot(page, 'register-invalid-email');

    // A mismatch marks the confirmation, and only it.
    await page.getByTestId('register-email').fill(uniqueEmail('mismatch'));
    await page.getByTestId('register-confirm-password').fill('something else');
    await page.getByTestId('register-submit').click();
    await expect(error.textContent()).resolves.toBe('Passwords do not match');
    await expect(page.getByTestId('register-confirm-password').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByTestId('register-email').getAttribute('aria-invalid')).resolves.toBeNull();
    await page.context().close();
  });

  it('a wrong password marks both sign-in fields and links them to the message', async () => {
    const page = await newPage(browser());
    await signIn(page, uniqueEmail('nobody'), 'wrong password');
    await page.getByTestId('login-error').waitFor();
    for (const id of ['login-email', 'login-password']) {
      await expect(page.getByTestId(id).getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByTestId(id).getAttribute('aria-describedby')).resolves.toContain('login-problem');
    }
    await page.context().close();
  });

  it('a verification link opened twice says the address is already verified; the token leaves the address bar', async () => {
    const email = uniqueEmail('twice');
    expect((await api('POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
    const link = linkIn(await waitForEmail(email, /verify/i), '/verify-email?token=');
    const page = await newPage(browser());
    await page.goto(link);
    await page.getByTestId('verify-success').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.goto(link);
    await page.getByTestId('verify-already').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Email Already Verified');
    expect(new URL(page.url()).search).toBe('');
    await screenshot(page, 'verify-already');
    await page.context().close();
  });

  it('the reset page takes the token out of the address bar and still resets the password with it', async () => {
    const email = await verifiedAccount();
    expect((await api('POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(200);
    const link = linkIn(await waitForEmail(email, /reset/i), '/reset-password?token=');
    const page = await newPage(browser());
    await page.goto(link);
    await page.getByTestId('reset-password').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByTestId('reset-password').fill('a new long password');
    await page.getByTestId('reset-confirm-password').fill('a new long password');
    await page.getByTestId('reset-password-submit').click();
    await page.getByTestId('reset-password-success').waitFor();
    await page.context().close();
  });

  it('asking for a reset link again within the cool-down says when to try again, not that an email was sent', async () => {
    const page = await newPage(browser());
    const email = uniqueEmail('cooldown');
    for (let i = 0; i < 2; i++) {
      await page.goto('/forgot-password');
      await page.getByTestId('forgot-password-email').fill(email);
      await page.getByTestId('forgot-password-submit').click();
      if (i === 0) await page.getByTestId('forgot-password-sent').waitFor();
    }
    const error = page.getByTestId('forgot-password-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toMatch(
      /a moment ago\. If an account exists for it, that email is on its way; you can ask again in \d+ (seconds?|minutes?)\./,
    );
    await screenshot(page, 'forgot-password-cooldown');
    await page.context().close();
  });

  it('a signed-in visitor sees no Sign In or Create Account link, and signing out lands on /', async () => {
    const email = await verifiedAccount();
    const page = await newPage(browser());
    await signIn(page, email);
    await page.waitForURL('**/dashboard');
    for (const path of ['/', '/contact', '/properties', '/help']) {
      await page.goto(path);
      // Once the session check is done the header offers the dashboard; then look for sign-in links.
      await page.locator('header a[href="/dashboard"]').first().waitFor();
      await page.locator('footer').waitFor();
      await expect(page.locator('a[href="/login"], a[href="/register"]').count()).resolves.toBe(0);
    }
    await screenshot(page, 'signed-in-landing');
    await page.goto('/dashboard');
    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('a session ended by the server signs the user out with a short message, and other tabs follow', async () => {
    const email = await verifiedAccount();
    const first = await newPage(browser());
    await signIn(first, email);
    await first.waitForURL('**/dashboard');
    const second = await first.context().newPage();
    await second.goto('/dashboard');
    await second.getByTestId('dashboard-greeting').waitFor();

    // The server ends the session (as a password reset elsewhere would).
    const token = await first.evaluate(() => localStorage.getItem('token'));
    expect((await api('POST', '/api/auth/logout', { token: token ?? '' })).status).toBe(204);

    // Coming back to the tab refetches (TanStack Query listens on window): that call is answered 401.
    await first.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    const notice = first.getByTestId('session-notice');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('Your session has ended. Please sign in again.');
    await first.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/dashboard');
    expect(await first.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await screenshot(first, 'session-ended');

    // The other tab follows through the storage event, without a call of its own.
    await second.getByTestId('session-notice').waitFor();
    await second.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/dashboard');
    await first.context().close();
  });
});
