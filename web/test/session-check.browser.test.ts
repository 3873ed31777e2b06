import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { axeViolations, isSerious, violationLine } from './axe.js';
import { verifiedUser } from './fixtures.js';

// Issue 37, item 1: leaving a page while the app still checks the stored token signed people
// out. Only a 401 ends a session: a check cut short or unanswered keeps the token.

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

describe('the session check on page load', () => {
  const browser = useBrowser();
  let token: string;
  beforeAll(async () => {
    ({ token } = await verifiedUser('session-check'));
  });

  /** A page of a signed-in browser: the token stored once, as after a sign-in (not on every load). */
  async function signedIn(): Promise<Page> {
    const page = await newPage(browser());
    await page.goto('/privacy');
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    return page;
  }

  it('keeps the session when / is left for /dashboard while its check is under way, 20 times in a row', async () => {
    const page = await signedIn();
    const landedOn: string[] = [];
    for (let round = 0; round < 20; round += 1) {
      // Leave / as soon as its check of the token has gone out, before it is answered.
      const checkSent = page.waitForRequest((req) => req.url().endsWith('/api/auth/me'));
      await page.goto('/', { waitUntil: 'commit' });
      await checkSent;
      await page.goto('/dashboard');
      await page.getByTestId('dashboard-greeting').or(page.getByTestId('login-email')).first().waitFor();
      landedOn.push(new URL(page.url()).pathname);
      expect(await storedToken(page), `round ${round + 1}: the stored token is kept`).toBe(token);
    }
    expect(landedOn).toEqual(Array(20).fill('/dashboard'));
    await page.context().close();
  });

  it('keeps the token and offers another try when the check gets no answer, and signs out on a 401', async () => {
    const page = await signedIn();
    // The gateway unreachable for the check: not a sign-out.
    await page.route('**/api/auth/me', (route) => route.abort('connectionrefused'));
    await page.goto('/dashboard');
    await page.getByTestId('session-unchecked').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await storedToken(page)).toBe(token);
    const serious = (await axeViolations(page)).filter(isSerious).map(violationLine);
    expect(serious, serious.join('\n')).toEqual([]);
    await screenshot(page, 'session-unchecked');
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await screenshot(page, 'session-unchecked-320');

    // Answered again: the same page, signed in.
    await page.unroute('**/api/auth/me');
    await page.getByTestId('session-recheck').click();
    await page.getByTestId('dashboard-greeting').waitFor();

    // A 5xx is no answer about the token either.
    await page.route('**/api/auth/me', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    await page.reload();
    await page.getByTestId('session-unchecked').waitFor();
    expect(await storedToken(page)).toBe(token);

    // Only the server refusing the token ends the session.
    await page.route('**/api/auth/me', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"Not signed in"}' }),
    );
    await page.reload();
    await page.waitForURL(/\/login\?next=%2Fdashboard$/);
    expect(await storedToken(page)).toBeNull();
    await page.context().close();
  });
});
