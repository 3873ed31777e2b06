import { describe, expect, it } from 'vitest';
import { totpCode } from '../../services/auth/src/domain/totp.js';
import { createAdmin } from '../../test/support/admin.js';
import { uniqueEmail } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';

const PASSWORD = 'correct horse battery';

describe('admin sign-in security in a browser', () => {
  const browser = useBrowser();

  it('keeps an admin’s token in this tab only (sessionStorage): a reload keeps it, a new tab does not have it', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const page = await newPage(browser());
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

  it('an admin turns on TOTP at /admin/security, then signs in with the password and a code, or a recovery code once', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const page = await newPage(browser());
    const signInWithPassword = async () => {
      await page.goto('/admin-login');
      await page.getByTestId('admin-email').fill(email);
      await page.getByTestId('admin-password').fill(PASSWORD);
      await page.getByTestId('admin-login-submit').click();
    };
    await signInWithPassword();
    await page.waitForURL('**/admin');
    await page.getByTestId('admin-security-link').click();
    await page.waitForURL('**/admin/security');
    await page.getByTestId('mfa-status-off').waitFor();
    await page.getByTestId('mfa-enrol').click();
    const secret = (await page.getByTestId('mfa-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.getByTestId('mfa-otpauth-link').getAttribute('href')).toContain(`secret=${secret}`);
    await page.getByTestId('mfa-activate-code').fill('000000');
    await page.getByTestId('mfa-activate-submit').click();
    await page.getByTestId('mfa-activate-error').waitFor();
    await page.getByTestId('mfa-activate-code').fill(totpCode(secret));
    await page.getByTestId('mfa-activate-submit').click();
    const codes = page.getByTestId('mfa-recovery-codes').locator('code');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const recovery = (await codes.first().textContent()) ?? '';
    await screenshot(page, 'admin-mfa-enabled');
    // The session the page holds now is the one activation answered: still signed in.
    await page.reload();
    await page.getByTestId('mfa-status-on').waitFor();

    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => url.pathname === '/');

    // Password first, then the code step; a wrong code is refused there.
    await signInWithPassword();
    await page.getByTestId('admin-mfa-code').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin-login');
    await page.getByTestId('admin-mfa-code').fill('123456');
    await page.getByTestId('admin-mfa-submit').click();
    await expect(page.getByTestId('admin-login-error').textContent()).resolves.toMatch(/not valid/);
    await screenshot(page, 'admin-mfa-code-step');
    // The code of the next 30-second step: the current one was used to turn TOTP on.
    await page.getByTestId('admin-mfa-code').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByTestId('admin-mfa-submit').click();
    await page.waitForURL('**/admin');
    await expect(page.getByTestId('admin-user-email').textContent()).resolves.toContain(email);
    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => url.pathname === '/');

    // A recovery code instead of the app signs in once.
    const signInWithRecoveryCode = async () => {
      await signInWithPassword();
      await page.getByTestId('admin-mfa-use-recovery').click();
      await page.getByTestId('admin-mfa-code').fill(recovery);
      await page.getByTestId('admin-mfa-submit').click();
    };
    await signInWithRecoveryCode();
    await page.waitForURL('**/admin');
    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => url.pathname === '/');
    await signInWithRecoveryCode();
    await page.getByTestId('admin-login-error').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin-login');
    await page.context().close();
  });
});
