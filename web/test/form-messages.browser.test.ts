import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';

// Issue 37, item 2: each field carries its limit in the browser, and a refusal of the server is
// a sentence about the field, the same on every form (web/src/api/fieldMessages.ts), never the
// validator's text.

const VALIDATOR_WORDS = /must NOT|must match|must have|must be/;

/** What the browser holds a control to: its type and most characters, and whether it is marked wrong. */
const control = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el: HTMLInputElement | HTMLTextAreaElement) => ({
    type: el instanceof HTMLInputElement ? el.type : 'textarea',
    maxLength: el.maxLength,
    invalid: el.getAttribute('aria-invalid') === 'true',
  }));

/** Lifts the browser's own limit, as an old browser or a script would, to reach the server's. */
const liftLimit = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => el.removeAttribute('maxlength'));

describe('form fields: limits in the browser, refusals in words', () => {
  const browser = useBrowser();

  it('/request: limits on every field, a counter on the notes, and the server refusals as sentences', async () => {
    const page = await newPage(browser());
    await page.goto('/request');
    await expect(control(page, 'request-address')).resolves.toEqual({ type: 'text', maxLength: 300, invalid: false });
    await expect(control(page, 'request-url')).resolves.toMatchObject({ type: 'url', maxLength: 2048 });
    await expect(control(page, 'request-notes')).resolves.toMatchObject({ type: 'textarea', maxLength: 2000 });

    // Typing stops at the limit; the notes say how much is used.
    await page.getByTestId('request-address').fill('x'.repeat(350));
    expect((await page.getByTestId('request-address').inputValue()).length).toBe(300);
    await page.getByTestId('request-notes').fill('Twelve chars');
    await expect(page.locator('#request-notes-count').textContent()).resolves.toBe('12 of 2,000 characters');

    // Past the browser's limit, the server refuses: a sentence about the address, which is marked.
    await liftLimit(page, 'request-address');
    await page.getByTestId('request-address').fill(`1 Long Street ${'x'.repeat(300)}, Austin, TX 78704`);
    await page.getByTestId('request-submit').click();
    const error = page.getByTestId('request-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('The property address can be at most 300 characters.');
    await expect(control(page, 'request-address')).resolves.toMatchObject({ invalid: true });
    await expect(page.getByTestId('request-address').getAttribute('aria-describedby')).resolves.toBe('request-problem');
    await screenshot(page, 'form-request-refused');

    // An address the browser takes as a URL but the server does not.
    await page.getByTestId('request-address').fill('1 Short Street, Austin, TX 78704');
    await page.getByTestId('request-url').fill('ftp://example.com/listing');
    await page.getByTestId('request-submit').click();
    await expect.poll(() => error.textContent()).toMatch(/http:\/\/ or https:\/\//);
    expect(await error.textContent()).not.toMatch(VALIDATOR_WORDS);
    await expect(control(page, 'request-url')).resolves.toMatchObject({ invalid: true });
    await expect(control(page, 'request-address')).resolves.toMatchObject({ invalid: false });
    await page.close();
  });

  it('/contact: limits on every field, and the same words for the same refusal', async () => {
    const page = await newPage(browser());
    await page.goto('/contact');
    await expect(control(page, 'contact-name')).resolves.toMatchObject({ type: 'text', maxLength: 100 });
    await expect(control(page, 'contact-email')).resolves.toMatchObject({ type: 'email', maxLength: 254 });
    await expect(control(page, 'contact-subject')).resolves.toMatchObject({ maxLength: 200 });
    await expect(control(page, 'contact-message')).resolves.toMatchObject({ type: 'textarea', maxLength: 5000 });
    await expect(page.locator('#contact-message-count').textContent()).resolves.toBe('0 of 5,000 characters');

    await liftLimit(page, 'contact-name');
    await page.getByTestId('contact-name').fill('N'.repeat(101));
    await page.getByTestId('contact-email').fill('jane@example.com');
    await page.getByTestId('contact-subject').fill('A question');
    await page.getByTestId('contact-message').fill('About a report.');
    await page.getByTestId('contact-submit').click();
    const error = page.getByTestId('contact-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('Your name can be at most 100 characters.');
    await expect(control(page, 'contact-name')).resolves.toMatchObject({ invalid: true });

    // An address the browser accepts (no dot after the @) and the server does not: the words the
    // mapping gives the email field on every form.
    await page.getByTestId('contact-name').fill('Jane Doe');
    await page.getByTestId('contact-email').fill('jane@example');
    await page.getByTestId('contact-submit').click();
    await expect.poll(() => error.textContent()).toBe('Enter an email address like name@example.com.');
    await expect(control(page, 'contact-email')).resolves.toMatchObject({ invalid: true });
    await expect(control(page, 'contact-name')).resolves.toMatchObject({ invalid: false });
    await screenshot(page, 'form-contact-refused');
    await page.close();
  });
});
