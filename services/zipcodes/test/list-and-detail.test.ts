import { gunzipSync } from 'node:zlib';
import { ZipAnalysis, ZipListItem } from '@homereport/contracts';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import sample from '../sample/analyses.json' with { type: 'json' };

describe('GET /api/zipcodes', () => {
  it('lists list items only, each in the shape of spec section 3, the sample data set included', async () => {
    const res = await api('GET', '/api/zipcodes');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const items = res.body.zipCodes as ZipListItem[];
    expect(items.length).toBeGreaterThanOrEqual(60);
    for (const item of items) expect(Value.Errors(ZipListItem, item).First()).toBeUndefined();
    // Nothing beyond the list item: no detail sections travel in the list.
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(
      expect.arrayContaining([
        'executiveSummary',
        'investmentProfile',
        'location',
        'marketFundamentals',
        'tier',
        'zipCode',
      ]),
    );
    expect(JSON.stringify(items)).not.toMatch(/keyTakeaways|monthlyData|demographics/);

    const beverlyHills = items.find((i) => i.zipCode === '90210');
    expect(beverlyHills).toMatchObject({
      tier: expect.stringMatching(/^TIER 1:/),
      location: { city: 'Beverly Hills', state: 'CA', neighborhood: 'Beverly Hills Flats' },
      executiveSummary: { riskLevel: expect.any(String) },
      sample: true,
    });
    expect(beverlyHills?.marketFundamentals.medianSalePrice.value).toBeGreaterThan(1_000_000);
    expect(Math.abs(beverlyHills?.marketFundamentals.annualAppreciationRate.oneYear ?? 9)).toBeLessThan(1);
  });

  it('is ordered by ZIP code', async () => {
    const zips = ((await api('GET', '/api/zipcodes')).body.zipCodes as ZipListItem[]).map((i) => i.zipCode);
    expect(zips).toEqual([...zips].sort());
  });

  it('sends brotli or gzip to clients that accept them and answers 304 to a matching If-None-Match', async () => {
    const url = `${testEnv().gatewayUrl}/api/zipcodes`;
    const zipped = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('cache-control')).toBe('no-cache');
    // fetch decodes gzip itself; the bytes on the wire are checked below with decompress off.
    const body = (await zipped.json()) as { zipCodes: unknown[] };
    expect(body.zipCodes.length).toBeGreaterThanOrEqual(60);

    const raw = await import('node:http').then(
      (http) =>
        new Promise<Buffer>((resolve, reject) => {
          http
            .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c) => chunks.push(c));
              res.on('end', () => resolve(Buffer.concat(chunks)));
            })
            .on('error', reject);
        }),
    );
    expect(JSON.parse(gunzipSync(raw).toString()).zipCodes).toHaveLength(body.zipCodes.length);

    const brotli = await fetch(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(((await brotli.json()) as { zipCodes: unknown[] }).zipCodes).toHaveLength(body.zipCodes.length);

    const etag = zipped.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(url, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
  });
});

describe('GET /api/zipcodes/:zipCode', () => {
  it('answers the whole analysis in the detail shape of spec section 3', async () => {
    const res = await api('GET', '/api/zipcodes/44113');
    expect(res.status).toBe(200);
    const detail = res.body.zipCode;
    expect(Value.Errors(ZipAnalysis, detail).First()).toBeUndefined();
    expect(detail).toEqual(sample.find((a) => a.zipCode === '44113'));
    // Every section the contract knows, the optional ones included: the sample has them all.
    for (const section of Object.keys(ZipAnalysis.properties)) expect(detail).toHaveProperty(section);
    expect(detail.priceTrends.twelveMonthTrend.monthlyData).toHaveLength(12);
    expect(detail.reportMetadata.sample).toBe(true);
  });

  it.each(['1234', '123456', 'abcde', '9021O', '%20%2090210'])(
    'answers 400 for the malformed ZIP code %s',
    async (zip) => {
      const res = await api('GET', `/api/zipcodes/${zip}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/five digits/);
    },
  );

  it('answers 404 with an error for a well-formed ZIP code we have no analysis of', async () => {
    const res = await api('GET', '/api/zipcodes/00001');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: expect.stringMatching(/not found/i), code: 'NOT_FOUND' });
  });
});
