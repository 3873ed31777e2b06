import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReportSummary, ReportViewReply } from '@homereport/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { startServiceBeside } from '../../../test/support/service-process.js';
import { absentZip, buildAnalysis, freshZip } from '../../zipcodes/test/support/zipcodes.js';
import { type TestUser, coveredRequest, session, useAdmin } from './support.js';

const admin = useAdmin();

const view = (user: TestUser, id: string) =>
  api<ReportViewReply>('GET', `/api/requests/${id}/view`, { token: user.token });
const street = () => `${Math.floor(Math.random() * 9000) + 100} ${crypto.randomUUID().slice(0, 8)} Street`;

/** The figures staff enter on the admin request page (issue 40). */
async function setSummary(id: string, summary: ReportSummary) {
  const res = await api('PUT', `/api/admin/requests/${id}/summary`, { token: admin.token, body: summary });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('GET /api/requests/:id/view: the ZIP analysis in context', () => {
  it('answers the headline figures of the analysis of the property’s ZIP code', async () => {
    const zip = freshZip();
    const analysis = buildAnalysis(zip, { city: 'Testville', state: 'OH', tier: 1, price: 480_000 });
    const imported = await api('POST', '/api/admin/zipcodes/import', { token: admin.token, body: [analysis] });
    expect(imported.body.imported, JSON.stringify(imported.body)).toEqual([zip]);
    const id = await coveredRequest(admin, { address: `${street()}, Testville, OH ${zip}-0042` });
    await setSummary(id, { estimated_value: 455_000, beds: 3, baths: 2.5, headline: 'Corner lot near the park' });

    const res = await view(await session(), id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.request).toMatchObject({
      id,
      zip_code: zip,
      summary: { estimated_value: 455_000, beds: 3, baths: 2.5, headline: 'Corner lot near the park' },
    });
    expect(res.body.documents).toEqual([{ type: 'report', format: 'pdf', size: expect.any(Number) }]);
    const market = analysis.marketFundamentals;
    const monthly = analysis.priceTrends?.twelveMonthTrend?.monthlyData ?? [];
    expect(monthly.length).toBeGreaterThan(1);
    expect(res.body.zip_analysis).toMatchObject({
      zip_code: zip,
      city: 'Testville',
      state: 'OH',
      tier: analysis.reportMetadata.tier,
      median_price: market.medianSalePrice?.value,
      one_year_appreciation: market.annualAppreciationRate?.oneYear,
      risk_level: analysis.executiveSummary.riskLevel,
      monthly_prices: monthly,
    });
    expect(res.body.zip_analysis?.tier).toMatch(/^TIER 1:/);
    expect(res.body.zip_analysis?.median_rent).toEqual(expect.any(Number));
  });

  it('answers null for a ZIP code without an analysis, and for an address without a ZIP code', async () => {
    const user = await session();
    const zip = await absentZip();
    const withZip = await coveredRequest(admin, { address: `${street()}, Nowhere, OH ${zip}` });
    const res = await view(user, withZip);
    expect(res.status).toBe(200);
    expect(res.body.request.zip_code).toBe(zip);
    expect(res.body.request.summary).toBeNull();
    expect(res.body.zip_analysis).toBeNull();

    const noZip = await coveredRequest(admin, { address: `${street()}, Austin, TX` });
    const plain = await view(user, noZip);
    expect(plain.status).toBe(200);
    expect(plain.body.request.zip_code).toBeNull();
    expect(plain.body.zip_analysis).toBeNull();
  });
});

describe('GET /api/requests/:id/view while the ZIP analyses do not answer', () => {
  let hung: Server | undefined;
  let second: Awaited<ReturnType<typeof startServiceBeside>> | undefined;
  afterAll(async () => {
    second?.stop();
    hung?.closeAllConnections();
    await new Promise((r) => (hung ? hung.close(r) : r(undefined)));
  });

  it('opens the report on time, with zip_analysis null', { timeout: 120_000 }, async () => {
    const zip = freshZip();
    await api('POST', '/api/admin/zipcodes/import', { token: admin.token, body: [buildAnalysis(zip)] });
    const id = await coveredRequest(admin, { address: `${street()}, Testville, OH ${zip}` });

    // A zipcodes service that takes the call and never answers.
    hung = createServer(() => {});
    await new Promise<void>((r) => hung?.listen(0, '127.0.0.1', r));
    // A second requests service beside the stack's (same database), whose zipcodes is the hung one.
    second = await startServiceBeside('requests', 50, {
      LOG_LEVEL: 'error',
      ZIPCODES_URL: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
      ZIPCODES_TIMEOUT_MS: '500',
    });
    const { url } = second;
    const env = testEnv();

    const reader = await session();
    const started = Date.now();
    // As the gateway calls it: the internal secret and the resolved identity.
    const res = await fetch(`${url}/api/requests/${id}/view`, {
      headers: {
        'x-internal-secret': env.internalSecret,
        'x-user-id': reader.userId,
        'x-user-email': reader.email,
        'x-user-role': 'user',
      },
    });
    const body = (await res.json()) as ReportViewReply;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(body.request).toMatchObject({ id, zip_code: zip, status: 'covered' });
    expect(body.request.report_path).toEqual(expect.any(String));
    expect(body.zip_analysis).toBeNull();
  });
});
