import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { api } from '../../test/support/api.js';
import { newPage } from '../../test/support/browser.js';
import { coverViaApi, createRequestViaApi, newAdmin, uniqueAddress, verifiedUser } from './fixtures.js';

/**
 * Every screen of the app, for the tests that check all of them (accessibility, small screens):
 * each route with who can see it, and the states worth checking beyond the first load (a dialog
 * open, a tab chosen, a result shown). A new route of web/src/app/router.tsx belongs here.
 */

export type Who = 'public' | 'user' | 'admin';

/** The records the signed-in routes point at, made once per test file by `buildSite`. */
export interface SiteData {
  /** A covered request of the signed-in user. */
  requestId: string;
  /** `/shared/<token>`: a link the user made to that report. */
  sharedPath: string;
}

export interface SiteRoute {
  /** What a failure names: the path, or the path and the state. */
  name: string;
  path: string | ((data: SiteData) => string);
  who: Who;
  /** Brings the page into the state to check, after it has loaded. */
  prepare?: (page: Page) => Promise<void>;
}

export interface Site {
  data: SiteData;
  /** A page signed in as who (or signed out for public), at this viewport. */
  open: (who: Who, viewport: { width: number; height: number }) => Promise<Page>;
}

/** A ZIP code of the sample data every test stack starts with. */
const SAMPLE_ZIP = '44113';

/**
 * Until the page has shown what it loads: a main heading, no spinner and nothing busy, no
 * request in flight. Waits on conditions, never on time.
 */
export async function settle(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelector('.spinner, [aria-busy="true"]') === null);
}

const click = (testId: string) => async (page: Page) => {
  await page.getByTestId(testId).first().click();
  await settle(page);
};

/** Opens a dialog with the button `opener` finds, and waits for the dialog. */
const openDialog = (opener: (page: Page) => Locator, dialog: string) => async (page: Page) => {
  await opener(page).click();
  await page.getByTestId(dialog).waitFor();
};

/** Presses a toggle button (aria-pressed) unless it is already on. */
async function turnOn(page: Page, selector: string) {
  if ((await page.locator(selector).getAttribute('aria-pressed')) !== 'true') await page.locator(selector).click();
  await page.waitForSelector(`${selector}[aria-pressed="true"]`);
}

export const ROUTES: SiteRoute[] = [
  { name: '/', path: '/', who: 'public' },
  { name: '/properties', path: '/properties', who: 'public' },
  {
    name: '/properties, locked-report dialog',
    path: '/properties',
    who: 'public',
    prepare: openDialog((page) => page.getByTestId('view-full-report').first(), 'unlock-modal'),
  },
  { name: '/zip', path: '/zip', who: 'public' },
  { name: '/zip, list view', path: '/zip', who: 'public', prepare: click('zip-view-list') },
  { name: '/zip, map shown', path: '/zip?map=1', who: 'public' },
  {
    name: '/zip, locked-analysis dialog',
    path: '/zip',
    who: 'public',
    prepare: openDialog(
      (page) =>
        page
          .getByTestId('zip-card')
          .first()
          .getByRole('button', { name: /View Full Analysis/ }),
      'zip-unlock-modal',
    ),
  },
  { name: `/zip/${SAMPLE_ZIP}`, path: `/zip/${SAMPLE_ZIP}`, who: 'public' },
  { name: '/zip/00001 (not found)', path: '/zip/00001', who: 'public' },
  { name: '/request', path: '/request', who: 'public' },
  { name: '/contact', path: '/contact', who: 'public' },
  { name: '/help', path: '/help', who: 'public' },
  { name: '/privacy', path: '/privacy', who: 'public' },
  { name: '/login', path: '/login', who: 'public' },
  { name: '/register', path: '/register', who: 'public' },
  { name: '/forgot-password', path: '/forgot-password', who: 'public' },
  { name: '/reset-password', path: '/reset-password?token=not-a-real-token', who: 'public' },
  { name: '/verify-email', path: '/verify-email?token=not-a-real-token', who: 'public' },
  { name: '/admin-login', path: '/admin-login', who: 'public' },
  { name: '404', path: '/no-such-page', who: 'public' },
  { name: '/shared/<token>', path: (data) => data.sharedPath, who: 'public' },
  { name: '/shared/<token> (unknown link)', path: '/shared/not-a-real-token', who: 'public' },

  { name: '/dashboard', path: '/dashboard', who: 'user' },
  { name: '/report/<id>', path: (data) => `/report/${data.requestId}`, who: 'user' },
  {
    name: '/report/<id>, share link shown',
    path: (data) => `/report/${data.requestId}`,
    who: 'user',
    prepare: async (page) => {
      await page.getByTestId('share-create').click();
      await page.getByTestId('share-url').waitFor();
    },
  },
  { name: '/settings', path: '/settings', who: 'user' },
  { name: `/zip/${SAMPLE_ZIP}, signed in`, path: `/zip/${SAMPLE_ZIP}`, who: 'user' },
  {
    name: '/dashboard, a saved report',
    path: (data) => `/report/${data.requestId}`,
    who: 'user',
    prepare: async (page) => {
      await turnOn(page, '[data-testid="report"] [data-testid="save-star"]');
      await page.goto('/dashboard');
      await page.getByTestId('saved-report').first().waitFor();
      await settle(page);
    },
  },
  {
    name: `/zip/${SAMPLE_ZIP}, watched`,
    path: `/zip/${SAMPLE_ZIP}`,
    who: 'user',
    prepare: async (page) => {
      await turnOn(page, '[data-testid="zip-watch"]');
      await settle(page);
    },
  },

  { name: '/admin', path: '/admin', who: 'admin' },
  { name: '/admin, Leads tab', path: '/admin', who: 'admin', prepare: click('webhook-tab-leads') },
  { name: '/admin/requests', path: '/admin/requests', who: 'admin' },
  { name: '/admin/request/<id>', path: (data) => `/admin/request/${data.requestId}`, who: 'admin' },
  { name: '/admin/security', path: '/admin/security', who: 'admin' },
  { name: '/admin/zip-import', path: '/admin/zip-import', who: 'admin' },
  {
    name: '/admin/zip-import, a report with refusals',
    path: '/admin/zip-import',
    who: 'admin',
    prepare: async (page) => {
      const records = [{ zipCode: '123' }, 'not an object'];
      await page.getByTestId('import-input').setInputFiles({
        name: 'refused.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(records)),
      });
      await page.getByTestId('import-submit').click();
      await page.getByTestId('import-report').waitFor();
    },
  },
];

/** The records the signed-in screens need: a requester with a covered report, an admin, a lead. */
export async function buildSite(browser: Browser): Promise<Site> {
  const admin = await newAdmin();
  const reader = await verifiedUser('screens');
  const address = uniqueAddress('Screens');
  const id = await createRequestViaApi(address, reader.token);
  await coverViaApi(admin.token, id, address);
  // The requester opens it (free), which lets them share it: the shared page gets a real link.
  expect((await api('GET', `/api/requests/${id}/view`, { token: reader.token })).status).toBe(200);
  const shared = await api<{ share_url: string }>('POST', `/api/requests/${id}/share`, { token: reader.token });
  expect(shared.status).toBe(201);

  // A webhook key and a lead, so the Webhook Management tabs have rows to show.
  const key = await api<{ webhook_key: string }>('POST', '/api/admin/webhook-keys', {
    body: { key_name: `screens-${randomUUID().slice(0, 8)}` },
    token: admin.token,
  });
  expect(key.status).toBe(201);
  const lead = await api('POST', '/api/webhooks/leads', {
    headers: { 'x-webhook-key': key.body.webhook_key },
    body: { lead_id: `screens-${randomUUID()}`, first_name: 'Ada', last_name: 'Screens', email: 'ada@example.test' },
  });
  expect(lead.status).toBe(200);

  const tokens: Record<Who, string | null> = { public: null, user: reader.token, admin: admin.token };
  const open = async (who: Who, viewport: { width: number; height: number }) => {
    const page = await newPage(browser, viewport);
    const token = tokens[who];
    if (token) await page.context().addInitScript((value) => localStorage.setItem('token', value), token);
    return page;
  };
  return { data: { requestId: id, sharedPath: new URL(shared.body.share_url).pathname }, open };
}

/** Loads a route and brings it into its state. */
export async function visit(page: Page, route: SiteRoute, data: SiteData): Promise<void> {
  await page.goto(typeof route.path === 'string' ? route.path : route.path(data));
  await settle(page);
  await route.prepare?.(page);
}
