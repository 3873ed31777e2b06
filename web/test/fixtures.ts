import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, uniqueEmail } from '../../test/support/api.js';
import { newPage } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';
import { pdfBytes } from '../../test/support/pdf.mjs';

export { pdfBytes };

/** Records the browser tests need, made through the API the way people and staff would. */

export const PASSWORD = 'correct horse battery';

export const uniqueAddress = (label: string) =>
  `${Math.floor(Math.random() * 9000) + 100} ${label} Street ${randomUUID().slice(0, 6)}, Austin, TX 78704`;

/** A fresh admin made with the operator command; its email, password and a token. */
export async function newAdmin(): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('staff');
  expect((await createAdmin(email, PASSWORD)).code).toBe(0);
  const res = await api<{ token: string }>('POST', '/api/auth/admin-login', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return { email, token: res.body.token };
}

/** A verified user, registered and verified through the API and the emailed link. */
export async function verifiedUser(label = 'reader'): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(label);
  expect((await api('POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
  const mail = await waitForEmail(email, /verify/i);
  const token = tokenOf(linkIn(mail, '/verify-email?token='));
  expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
  const login = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  expect(login.status).toBe(200);
  return { email, token: login.body.token };
}

/** A request, the requester's own when `token` is given. */
export async function createRequestViaApi(address: string, token?: string): Promise<string> {
  const res = await api<{ request: { id: string } }>('POST', '/api/requests', {
    body: { address, notes: 'Created by the browser test' },
    token,
  });
  expect(res.status).toBe(201);
  return res.body.request.id;
}

/** Uploads the main report of a request (a page per text of `pages`) and marks it covered, as staff would. */
export async function coverViaApi(adminToken: string, id: string, address: string, pages?: string[]): Promise<void> {
  const form = new FormData();
  form.append(
    'report',
    new Blob([new Uint8Array(pdfBytes(pages ?? `Report for ${address}`))], { type: 'application/pdf' }),
    'analysis.pdf',
  );
  const upload = await fetch(`${testEnv().gatewayUrl}/api/admin/requests/${id}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: form,
  });
  expect(upload.status).toBe(200);
  const status = await api('PUT', `/api/admin/requests/${id}/status`, {
    body: { status: 'covered' },
    token: adminToken,
  });
  expect(status.status).toBe(200);
}

/** A page whose browser already holds this session's token, as after a sign-in. */
export async function signedInPage(browser: Browser, token: string): Promise<Page> {
  const page = await newPage(browser);
  await page.context().addInitScript((value) => localStorage.setItem('token', value), token);
  return page;
}
