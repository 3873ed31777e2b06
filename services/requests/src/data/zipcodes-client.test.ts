import type { ZipAnalysis } from '@homereport/contracts';
import { INTERNAL_SECRET_HEADER } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { json, standInService } from '../../../../test/support/stand-in.js';
import { ZipcodesClient } from './zipcodes-client.js';

const SECRET = 'an internal secret of some length';
const analysis: ZipAnalysis = {
  zipCode: '78701',
  reportMetadata: { tier: 'TIER 2: High-Growth', location: { city: 'Austin', state: 'TX' }, reportDate: '2025-06-30' },
  executiveSummary: { riskLevel: 'medium' },
  marketFundamentals: {
    medianSalePrice: { value: 612_000, yearOverYearChange: 0.041 },
    annualAppreciationRate: { oneYear: 0.038 },
  },
  priceTrends: {
    twelveMonthTrend: {
      monthlyData: [
        { month: '2025-05', medianPrice: 600_000 },
        { month: '2025-06', medianPrice: 612_000 },
      ],
    },
    rentalMarket: { averageRent: { oneBedroom: 1800, twoBedroom: 2400, threeBedroom: 3100 }, grossYield: 0.052 },
  },
};

const zipcodes = standInService();
const { warnings, context } = zipcodes;

describe('ZipcodesClient.headline', () => {
  it('asks for the analysis with the secret and the request id, and answers its headline figures', async () => {
    let seen: { url?: string; secret?: unknown; requestId?: unknown } = {};
    const url = await zipcodes.start((req, res) => {
      seen = { url: req.url, secret: req.headers[INTERNAL_SECRET_HEADER], requestId: req.headers['x-request-id'] };
      json(200, { zipCode: analysis })(req, res);
    });
    const headline = await new ZipcodesClient(url, SECRET, 2000).headline('78701', context);
    expect(seen).toEqual({ url: '/api/zipcodes/78701', secret: SECRET, requestId: 'req-1' });
    expect(headline).toEqual({
      zip_code: '78701',
      city: 'Austin',
      state: 'TX',
      neighborhood: null,
      tier: 'TIER 2: High-Growth',
      median_price: 612_000,
      price_change_1y: 0.041,
      one_year_appreciation: 0.038,
      // The middle of the three known unit sizes' rents.
      median_rent: 2400,
      rents: { studio: null, one_bedroom: 1800, two_bedroom: 2400, three_bedroom: 3100 },
      gross_yield: 0.052,
      risk_level: 'medium',
      days_on_market: null,
      monthly_prices: analysis.priceTrends?.twelveMonthTrend?.monthlyData,
      report_date: '2025-06-30',
      sample: false,
    });
    expect(warnings).toEqual([]);
  });

  it('answers null, without a warning, for a ZIP code nobody analysed', async () => {
    const url = await zipcodes.start(json(404, { error: 'NOT_FOUND', message: 'ZIP code 78701 not found.' }));
    expect(await new ZipcodesClient(url, SECRET, 2000).headline('78701', context)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('answers null with a warning when the service fails or breaks its contract', async () => {
    const failing = await zipcodes.start(json(503, { error: 'UNAVAILABLE' }));
    expect(await new ZipcodesClient(failing, SECRET, 2000).headline('78701', context)).toBeNull();
    expect(warnings).toEqual(['zipcodes answered 503: report shown without its ZIP analysis']);
    warnings.length = 0;
    const odd = await zipcodes.start(json(200, { zipCode: { ...analysis, reportMetadata: undefined } }));
    expect(await new ZipcodesClient(odd, SECRET, 2000).headline('78701', context)).toBeNull();
    expect(warnings[0]).toMatch(/breaks its contract at \/zipCode/);
  });

  it('gives up at its deadline on a service that never answers, and on one that is not there', async () => {
    // Headers sent, body never: the deadline covers the whole answer.
    const hung = await zipcodes.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"zipCode":');
    });
    const started = Date.now();
    expect(await new ZipcodesClient(hung, SECRET, 300).headline('78701', context)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(warnings).toEqual(['zipcodes unavailable (TimeoutError): report shown without its ZIP analysis']);
    warnings.length = 0;
    // A port nothing listens on (the stand-in's, closed).
    const gone = hung;
    await zipcodes.stop();
    expect(await new ZipcodesClient(gone, SECRET, 2000).headline('78701', context)).toBeNull();
    expect(warnings).toEqual(['zipcodes unavailable (TypeError): report shown without its ZIP analysis']);
  });
});
