import { describe, expect, it } from 'vitest';
import { newPage, useBrowser } from '../../test/support/browser.js';
import { PASSWORD, coverViaApi, createRequestViaApi, newAdmin, uniqueAddress, verifiedUser } from './fixtures.js';

describe('the locked-report popup on /properties', () => {
  const browser = useBrowser();

  it('Sign In goes to /login?next=/report/<id>, and signing in opens that report', async () => {
    const admin = await newAdmin();
    const address = uniqueAddress('Locked');
    const id = await createRequestViaApi(address);
    await coverViaApi(admin.token, id, address);
    const reader = await verifiedUser('locked');

    const page = await newPage(browser());
    await page.goto('/properties');
    const card = page.locator(`[data-testid="property-card"][data-id="${id}"]`);
    await card.waitFor();
    await card.getByTestId('view-full-report').click();
    await page.getByTestId('unlock-modal').waitFor();
    await page.getByTestId('unlock-login').click();

    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/report/${id}`);
    await page.getByTestId('login-email').fill(reader.email);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(`**/report/${id}`);
    await expect(page.getByTestId('report-address').textContent()).resolves.toBe(address);
    await page.context().close();
  });
});
