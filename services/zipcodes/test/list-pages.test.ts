import { ZipListItem, type ZipListPage, type ZipListReply } from '@homereport/contracts';
import { parseCacheGeneration } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { absentZip, buildAnalysis, importAnalyses } from './support/zipcodes.js';

const page = (query: string) => api<ZipListPage>('GET', `/api/zipcodes?${query}`);
const zipsOf = (body: { zipCodes: ZipListItem[] }) => body.zipCodes.map((i) => i.zipCode);

/**
 * The service itself, past the gateway, as the gateway's public cache asks it: the generation
 * header is what that cache relies on, whatever the gateway then sends on.
 */
async function fromService(path: string): Promise<Response> {
  const env = testEnv();
  return fetch(`http://127.0.0.1:${env.servicePorts.zipcodes}${path}`, {
    headers: { 'x-internal-secret': env.internalSecret },
  });
}

describe('GET /api/zipcodes with q, tier, limit, offset (a page of the list)', () => {
  let all: ZipListItem[];
  beforeAll(async () => {
    all = (await api<ZipListReply>('GET', '/api/zipcodes')).body.zipCodes;
  });

  it('answers a page in ZIP code order with the counters of the whole list', async () => {
    const res = await page('limit=24');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['next_offset', 'premium', 'showing', 'total', 'zipCodes']);
    for (const item of res.body.zipCodes) expect(Value.Errors(ZipListItem, item).First()).toBeUndefined();
    expect(zipsOf(res.body)).toEqual(all.slice(0, 24).map((i) => i.zipCode));
    expect(res.body.total).toBe(all.length);
    expect(res.body.showing).toBe(all.length);
    expect(res.body.premium).toBe(all.filter((i) => i.tier.startsWith('TIER 1')).length);
    expect(res.body.next_offset).toBe(24);
  });

  it('walks the whole list by next_offset, every item once', async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const res: Awaited<ReturnType<typeof page>> = await page(`limit=100&offset=${offset}`);
      expect(res.status).toBe(200);
      expect(res.body.zipCodes.length).toBeLessThanOrEqual(100);
      seen.push(...zipsOf(res.body));
      offset = res.body.next_offset;
    }
    expect(seen).toEqual(all.map((i) => i.zipCode));
  });

  it('defaults to 24 per page from the start, and gives an empty last page past the end', async () => {
    const first = await page('tier=2');
    expect(first.body.zipCodes).toHaveLength(Math.min(24, first.body.showing));
    const past = await page(`offset=${all.length + 10}`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ zipCodes: [], total: all.length, showing: all.length, next_offset: null });
  });

  it('matches q against the ZIP code by substring and city, state, neighborhood case-insensitively', async () => {
    // Other suites import ZIP codes into the same database while this one runs: compare with
    // the whole list as it is now, not as it was when the suite began.
    all = (await api<ZipListReply>('GET', '/api/zipcodes')).body.zipCodes;
    const byZip = await page('q=021&limit=100');
    // A ZIP code with 021 in it, or a place: other suites' made-up neighborhoods end in random hex.
    const matches = (i: ZipListItem) =>
      [i.zipCode, i.location.city, i.location.state, i.location.neighborhood ?? ''].some((s) =>
        s.toLowerCase().includes('021'),
      );
    expect(zipsOf(byZip.body)).toEqual(all.filter(matches).map((i) => i.zipCode));
    expect(byZip.body.showing).toBe(byZip.body.zipCodes.length);
    expect(byZip.body.zipCodes.length).toBeGreaterThan(0);

    expect(zipsOf((await page('q=CLEVELAND')).body)).toEqual(['44113']);
    expect(zipsOf((await page(`q=${encodeURIComponent('ohio city / TREMONT')}`)).body)).toEqual(['44113']);
    const state = (await page('q=tx&limit=100')).body;
    expect(state.zipCodes.length).toBeGreaterThan(0);
    // 'tx' is in no city or neighborhood of the sample, so every match is a Texas one.
    expect(state.zipCodes.every((i) => i.location.state === 'TX')).toBe(true);
    expect(state.showing).toBe(all.filter((i) => i.location.state === 'TX').length);
    // Surrounding spaces are ignored; nothing matching is an empty page, the counters still whole.
    expect(zipsOf((await page('q=%20%2090210%20')).body)).toEqual(['90210']);
    const none = await page('q=no%20such%20place%20anywhere');
    expect(none.body).toEqual({
      zipCodes: [],
      total: all.length,
      premium: expect.any(Number),
      showing: 0,
      next_offset: null,
    });
  });

  it('filters by tier, alone and with q', async () => {
    for (const tier of [1, 2, 3]) {
      const res = await page(`tier=${tier}&limit=100`);
      const expected = all.filter((i) => i.tier.startsWith(`TIER ${tier}:`));
      expect(res.body.showing).toBe(expected.length);
      expect(zipsOf(res.body)).toEqual(expected.slice(0, 100).map((i) => i.zipCode));
    }
    const both = await page('q=021&tier=1');
    expect(zipsOf(both.body)).toEqual(
      all.filter((i) => i.zipCode.includes('021') && i.tier.startsWith('TIER 1:')).map((i) => i.zipCode),
    );
    expect(both.body.premium).toBe(all.filter((i) => i.tier.startsWith('TIER 1')).length);
  });

  it('answers only the ZIP codes given (a page of Browse cards), in list order, with the counters', async () => {
    const [a, b, c] = all.slice(-3).map((i) => i.zipCode);
    const res = await page(`codes=${c},${await absentZip()},${a},${c}&limit=100`);
    expect(res.status).toBe(200);
    expect(zipsOf(res.body)).toEqual([a, c]);
    expect(res.body).toMatchObject({ showing: 2, total: all.length, next_offset: null });
    expect(zipsOf((await page(`codes=${b}&tier=${all.at(-2)?.tier.slice(5, 6)}`)).body)).toEqual([b]);
  });

  it.each([
    ['codes=7870', /codes must be up to 100 ZIP codes of five digits, separated by commas/],
    [`codes=${Array.from({ length: 101 }, (_, i) => String(10000 + i)).join(',')}`, /codes must be up to 100/],
    ['limit=0', /limit must be a whole number from 1 to 100/],
    ['limit=101', /limit must be a whole number from 1 to 100/],
    ['limit=ten', /limit must be a whole number from 1 to 100/],
    ['limit=-1', /limit must be a whole number from 1 to 100/],
    ['offset=-1', /offset must be a whole number from 0 to 1000000/],
    ['offset=1.5', /offset must be a whole number from 0 to 1000000/],
    ['offset=99999999999', /offset must be a whole number from 0 to 1000000/],
    ['tier=4', /tier must be 1, 2 or 3/],
    ['tier=TIER%201', /tier must be 1, 2 or 3/],
    [`q=${'a'.repeat(101)}`, /q must be at most 100 characters/],
    ['limit=10&limit=20', /Give limit once/],
    ['teir=1', /Unknown query parameter "teir"/],
  ])('answers 400 with a clear message for %s', async (query, message) => {
    const res = await page(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(message), code: 'BAD_REQUEST' });
  });

  it('names the list generation on paged and whole answers alike, and 304s a page while it holds', async () => {
    const whole = await fromService('/api/zipcodes');
    const paged = await fromService('/api/zipcodes?q=beverly&limit=24');
    expect(whole.status).toBe(200);
    expect(paged.status).toBe(200);
    const named = parseCacheGeneration(whole.headers.get('x-cache-generation'));
    expect(named).toMatchObject({ key: 'zipcodes:list:generation', generation: expect.stringMatching(/^\d+$/) });
    expect(paged.headers.get('x-cache-generation')).toBe(whole.headers.get('x-cache-generation'));
    // The gateway keeps each page by URL on that generation and serves it again itself.
    await page('limit=24');
    const viaGateway = await page('limit=24');
    expect(viaGateway.headers.get('x-cache')).toBe('hit');
    expect(viaGateway.headers.get('x-cache-generation')).toBeNull();
    expect(viaGateway.headers.get('etag')).toBe(whole.headers.get('etag'));

    // A page is a function of the list and the URL: the list's ETag revalidates it.
    const etag = paged.headers.get('etag') ?? '';
    expect(etag).toBe(whole.headers.get('etag'));
    const again = await api('GET', '/api/zipcodes?q=beverly&limit=24', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('changes its pages, counters and generation with an import', async () => {
    const before = await fromService('/api/zipcodes?limit=1');
    const beforeBody = (await before.json()) as ZipListPage;
    // A ZIP code the server does not hold: another file's import of the same code would replace it, not add one.
    const analysis = buildAnalysis(await absentZip(), { tier: 1 });
    const neighborhood = analysis.reportMetadata.location.neighborhood ?? '';
    const q = `q=${encodeURIComponent(neighborhood.toUpperCase())}`;
    expect((await page(q)).body.showing).toBe(0);

    expect((await importAnalyses([analysis])).body.imported).toEqual([analysis.zipCode]);

    const found = await page(q);
    expect(zipsOf(found.body)).toEqual([analysis.zipCode]);
    expect(found.body.total).toBe(beforeBody.total + 1);
    expect(found.body.premium).toBe(beforeBody.premium + 1);
    // And it sits on the page its place in ZIP code order puts it.
    const whole = (await api<ZipListReply>('GET', '/api/zipcodes')).body.zipCodes.map((i) => i.zipCode);
    const at = whole.indexOf(analysis.zipCode);
    expect(zipsOf((await page(`limit=1&offset=${at}`)).body)).toEqual([analysis.zipCode]);
    const after = await fromService('/api/zipcodes?limit=1');
    expect(Number(parseCacheGeneration(after.headers.get('x-cache-generation'))?.generation)).toBeGreaterThan(
      Number(parseCacheGeneration(before.headers.get('x-cache-generation'))?.generation),
    );
  });

  it('keeps the whole list for a call without parameters', async () => {
    const res = await api<ZipListReply>('GET', '/api/zipcodes');
    expect(Object.keys(res.body)).toEqual(['zipCodes']);
    expect(res.body.zipCodes.length).toBeGreaterThanOrEqual(all.length);
  });
});
