import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, uniqueEmail } from '../../test/support/api.js';
import { newPage } from '../../test/support/browser.js';
import { testEnv } from '../../test/support/env.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';

/** Records the browser tests need, made through the API the way people and staff would. */

export const PASSWORD = 'correct horse battery';

/**
 * A small but real PDF (header, objects, cross-reference table, trailer), as the upload checks
 * bytes: one page per text given, each line of it in Helvetica (a font every reader has).
 */
export function pdfBytes(text: string | string[]): Buffer {
  const pages = typeof text === 'string' ? [text] : text;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (const [i, page] of pages.entries()) {
    const content = `BT /F1 18 Tf 72 720 Td (${page}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * i} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

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
