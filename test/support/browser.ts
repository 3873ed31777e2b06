import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { testEnv } from './env.js';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

/** Debian's chromium, headless, with nothing that reaches beyond this machine. */
export async function openBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/**
 * The browser of a test file, or of the describe block it is called in: launched before the
 * tests, closed after them with every context they opened. Returns the browser, for the tests
 * and for the hooks declared after this call.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    for (const context of browser?.contexts() ?? []) await context.close().catch(() => {});
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser opens before the tests: use it inside a test or a later hook');
    return browser;
  };
}

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: testEnv().gatewayUrl });
  return context.newPage();
}

/** Keeps a full-page screenshot under test-results/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
