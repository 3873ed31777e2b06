import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../test/support/api.js';
import { DESKTOP, PHONE, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { waitForEmail } from '../../test/support/mail.js';

describe('support pages in a browser', () => {
  const browser = useBrowser();

  it('sends a contact message through the form; the sender gets the acknowledgement', async () => {
    const email = uniqueEmail('contact');
    const page = await newPage(browser());
    await page.goto('/contact');
    await page.getByTestId('contact-name').fill('Casey Buyer');
    await page.getByTestId('contact-email').fill(email);
    await page.getByTestId('contact-subject').fill('Question about 12 Elm St');
    await page.getByTestId('contact-message').fill('Do you cover duplexes in Austin?');
    await page.getByTestId('contact-submit').click();
    await page.getByTestId('contact-success').waitFor();
    await expect(page.getByRole('heading', { name: 'Message Sent Successfully!' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'contact-sent');
    const ack = await waitForEmail(email);
    expect(ack.text).toContain('24 hours');
    await page.context().close();
  });

  it('filters help answers by a search and opens one answer at a time', async () => {
    const page = await newPage(browser());
    await page.goto('/help');
    await page.getByTestId('help-search').fill('CREDITS');
    const questions = page.getByRole('button', { name: /credit/i });
    expect(await questions.count()).toBeGreaterThan(0);
    await page.getByTestId('help-search').fill('zzzz no such thing');
    await page.getByTestId('help-no-results').waitFor();
    await page.context().close();
  });

  it('shows the floating help button after 10 idle minutes, and dismissing it lasts the session', async () => {
    const page = await newPage(browser());
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByTestId('help-button').count()).resolves.toBe(0);
    await page.clock.fastForward(10 * 60_000 + 31_000);
    await page.getByTestId('help-button').waitFor();
    expect(await page.getByTestId('help-button').getAttribute('title')).toMatch(/^Get Advanced Support/);
    await page.getByTestId('help-button-dismiss').click();
    await page.getByTestId('help-button').waitFor({ state: 'detached' });
    await page.reload();
    await page.clock.fastForward(11 * 60_000);
    await expect(page.getByTestId('help-button').count()).resolves.toBe(0);
    await page.context().close();
  });

  for (const path of ['/help', '/contact', '/privacy']) {
    it(`renders ${path} at desktop and phone widths`, async () => {
      for (const [label, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await newPage(browser(), viewport);
        await page.goto(path);
        await page.locator('h1').first().waitFor();
        // Nothing spills sideways on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(1);
        await screenshot(page, `${path.slice(1)}-${label}`);
        await page.context().close();
      }
    });
  }

  it('privacy policy lists its six sections and the last-updated date', async () => {
    const page = await newPage(browser());
    await page.goto('/privacy');
    await expect(page.getByTestId('privacy-updated').textContent()).resolves.toContain('January 15, 2024');
    for (const section of [
      'Information We Collect',
      'How We Use Your Information',
      'Information Sharing',
      'Data Security',
      'Your Rights and Choices',
      'Data Retention',
    ]) {
      await expect(page.getByRole('heading', { name: section }).isVisible()).resolves.toBe(true);
    }
    await page.context().close();
  });
});
