import { fileLinkKey, signFileLink } from '@homereport/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { coveredRequest, docx, pdf, session, upload, useAdmin } from './support.js';

const download = (link: string, headers: Record<string, string> = {}) =>
  fetch(`${testEnv().gatewayUrl}${link}`, { headers });

const admin = useAdmin();
let links: { report_path: string; strategy_path: string };
let id: string;
const report = pdf('download me');

beforeAll(async () => {
  id = await coveredRequest(admin);
  const res = await upload(id, admin.token, [
    { field: 'report', name: 'Résumé du bien.pdf', content: report },
    { field: 'strategy', name: 'strategy.docx', content: docx() },
  ]);
  expect(res.status).toBe(200);
  links = res.body.request;
});

describe('signed download links', () => {
  it('a user viewing the report gets links that stream the file with its type and name, no bearer needed', async () => {
    const user = await session();
    const view = await api('GET', `/api/requests/${id}/view`, { token: user.token });
    expect(view.status).toBe(200);
    const res = await download(view.body.request.report_path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="R_sum_ du bien.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20du%20bien.pdf`,
    );
    // Opened in a tab, a file runs in a sandbox: no scripts, an origin of its own.
    expect(res.headers.get('content-security-policy')).toMatch(/;sandbox$/);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(report);
    const word = await download(view.body.request.strategy_path);
    expect(word.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });

  it('links last 15 minutes', () => {
    const expires = Number(new URL(links.report_path, 'http://x').searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
  });

  it('an altered signature is 403', async () => {
    const url = new URL(links.report_path, 'http://x');
    const signature = url.searchParams.get('signature') as string;
    url.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    const res = await download(`${url.pathname}${url.search}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/not valid/);
  });

  it('a link moved to another file or with a later expiry is 403', async () => {
    const report = new URL(links.report_path, 'http://x');
    const strategy = new URL(links.strategy_path, 'http://x');
    expect((await download(`${strategy.pathname}${report.search}`)).status).toBe(403);
    report.searchParams.set('expires', String(Number(report.searchParams.get('expires')) + 3600));
    expect((await download(`${report.pathname}${report.search}`)).status).toBe(403);
  });

  it('a link without a signature is 403', async () => {
    const path = new URL(links.report_path, 'http://x').pathname;
    expect((await download(path)).status).toBe(403);
  });

  it('an expired link is 403', async () => {
    const key = new URL(links.report_path, 'http://x').pathname.replace('/api/files/', '');
    const expired = signFileLink(fileLinkKey(undefined, testEnv().internalSecret), key, 60, Date.now() - 120_000);
    // Sanity: the same key signed fresh works, so the 403 is the expiry's.
    expect((await download(signFileLink(fileLinkKey(undefined, testEnv().internalSecret), key, 60))).status).toBe(200);
    const res = await download(expired);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('LINK_EXPIRED');
  });

  it('a valid link to a file that was replaced is 404', async () => {
    const old = links.report_path;
    const res = await upload(id, admin.token, [{ field: 'report', name: 'new.pdf', content: pdf('new') }]);
    expect(res.status).toBe(200);
    links = res.body.request;
    expect((await download(old)).status).toBe(404);
    expect((await download(links.report_path)).status).toBe(200);
  });
});
