import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, newPage, screenshot, useBrowser } from '../../test/support/browser.js';

describe('the web shell in a browser, served by the gateway', () => {
  const browser = useBrowser();

  it('renders the landing page with its calls to action and six feature cards', async () => {
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await newPage(browser(), viewport);
      await page.goto('/');
      // Pages are lazy-loaded: the route renders its <main> once its chunk has arrived.
      await page.locator('#main').waitFor();
      await expect(
        page
          .getByRole('link', { name: /Request Coverage/ })
          .first()
          .isVisible(),
      ).resolves.toBe(true);
      await expect(
        page
          .getByRole('link', { name: /Browse Reports/ })
          .first()
          .isVisible(),
      ).resolves.toBe(true);
      for (const feature of [
        /data-driven/i,
        /professional reports/i,
        /location intelligence/i,
        /expert team/i,
        /fast turnaround/i,
        /investment focus/i,
      ]) {
        await expect(page.getByText(feature).first().isVisible()).resolves.toBe(true);
      }
      await expect(
        page
          .getByRole('link', { name: /Create Free Account/ })
          .first()
          .isVisible(),
      ).resolves.toBe(true);
      expect(await page.title()).toMatch(/HomeReport/);
      await screenshot(page, `landing-${label}`);
      await page.context().close();
    }
  });

  it('shows the 404 page for an unknown path, with a way home', async () => {
    const page = await newPage(browser());
    await page.goto('/anything/else');
    await page.locator('#main').waitFor();
    await expect(page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).resolves.toBe(true);
    await expect(
      page.getByText("The page you're looking for doesn't exist. It might have been moved or deleted.").isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'not-found');
    await page
      .getByRole('button', { name: 'Go Home' })
      .or(page.getByRole('link', { name: 'Go Home' }))
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('answers an unknown API path with JSON, not the web app', async () => {
    const page = await newPage(browser());
    const res = await page.request.get('/api/nope');
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    await page.context().close();
  });
});
