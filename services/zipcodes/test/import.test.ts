import type { ZipListItem } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import {
  absentZip,
  admin,
  buildAnalysis,
  freshZip,
  importAnalyses,
  signedInUser,
  withAnalyses,
} from './support/zipcodes.js';

const listed = async (zip: string) =>
  ((await api('GET', '/api/zipcodes')).body.zipCodes as ZipListItem[]).find((i) => i.zipCode === zip);

describe('POST /api/admin/zipcodes/import', () => {
  it('imports the good records of a mixed file, refuses the bad ones with reasons, and stores only the good', async () => {
    const good = [buildAnalysis(), buildAnalysis()];
    const badTier = buildAnalysis(await absentZip());
    badTier.reportMetadata.tier = 'Tier 1 - Ultra-Premium';
    const badPercent = buildAnalysis(await absentZip());
    (badPercent.marketFundamentals.annualAppreciationRate as { oneYear: number }).oneYear = 5.4;
    const badRisk = buildAnalysis(await absentZip());
    (badRisk.executiveSummary as { riskLevel: string }).riskLevel = 'very high';
    const noZip = { ...buildAnalysis(), zipCode: '123' };

    const res = await importAnalyses([good[0], badTier, badPercent, good[1], badRisk, noZip, 'not an object']);
    expect(res.status).toBe(200);
    expect(res.body.imported).toEqual([good[0]?.zipCode, good[1]?.zipCode]);
    expect(res.body.refused.map((r) => r.index)).toEqual([1, 2, 4, 5, 6]);
    const reasons = Object.fromEntries(res.body.refused.map((r) => [r.index, r.errors.join(' | ')]));
    expect(reasons[1]).toMatch(/reportMetadata\.tier: must be 'TIER 1:'/);
    expect(reasons[2]).toMatch(/marketFundamentals\.annualAppreciationRate\.oneYear: must be a fraction .*got 5\.4/);
    expect(reasons[4]).toMatch(
      /executiveSummary\.riskLevel: must be one of low, low-medium, medium, medium-high, high/,
    );
    expect(reasons[5]).toMatch(/zipCode: must be five digits/);
    expect(reasons[6]).toMatch(/must be an object/);
    expect(res.body.refused.find((r) => r.index === 1)?.zipCode).toBe(badTier.zipCode);

    for (const g of good) expect((await api('GET', `/api/zipcodes/${g?.zipCode}`)).body.zipCode).toEqual(g);
    for (const b of [badTier, badPercent, badRisk]) {
      expect((await api('GET', `/api/zipcodes/${b.zipCode}`)).status).toBe(404);
    }
  });

  it('invalidates the cached list: a new analysis appears, and a re-import replaces the old figures', async () => {
    const zip = freshZip();
    expect(await listed(zip)).toBeUndefined(); // the list is cached now, without it

    const first = buildAnalysis(zip, { price: 300_000 });
    expect((await importAnalyses([first])).body.imported).toEqual([zip]);
    expect((await listed(zip))?.marketFundamentals.medianSalePrice.value).toBe(
      first.marketFundamentals.medianSalePrice?.value,
    );
    // Read (and so cached) before the second import.
    expect((await api('GET', `/api/zipcodes/${zip}`)).body.zipCode).toEqual(first);

    const { outlook: _left, ...second } = buildAnalysis(zip, { price: 900_000, tier: 1, neighborhood: 'Renamed Park' });
    expect((await importAnalyses([second])).body.imported).toEqual([zip]);
    const item = await listed(zip);
    expect(item?.tier).toBe('TIER 1: Ultra-Premium');
    expect(item?.location.neighborhood).toBe('Renamed Park');
    // A whole-document replace: nothing of the first import survives in the second.
    const detail = (await api('GET', `/api/zipcodes/${zip}`)).body.zipCode;
    expect(detail).toEqual(second);
    expect(detail.outlook).toBeUndefined();
  });

  it('leaves the stored analysis untouched when a bad version of it is refused', async () => {
    const original = buildAnalysis();
    await importAnalyses([original]);
    const broken = structuredClone(original);
    (broken.reportMetadata as { tier: string }).tier = 'TIER 4: Unknown';
    const res = await importAnalyses([broken]);
    expect(res.body).toEqual({
      imported: [],
      refused: [expect.objectContaining({ index: 0, zipCode: original.zipCode })],
    });
    expect((await api('GET', `/api/zipcodes/${original.zipCode}`)).body.zipCode).toEqual(original);
  });

  it('refuses a ZIP code given twice in one import the second time', async () => {
    const a = buildAnalysis();
    const b = buildAnalysis(a.zipCode, { price: 999_000 });
    const res = await importAnalyses([a, b]);
    expect(res.body.imported).toEqual([a.zipCode]);
    expect(res.body.refused).toEqual([
      { index: 1, zipCode: a.zipCode, errors: [expect.stringMatching(/already given at index 0/)] },
    ]);
    const stored = await withAnalyses((c) => c.findOne({ _id: a.zipCode as never }));
    expect(stored?.marketFundamentals.medianSalePrice.value).toBe(a.marketFundamentals.medianSalePrice?.value);
  });

  it('answers 400 when the body is not an array of records', async () => {
    const res = await importAnalyses(buildAnalysis());
    expect(res.status).toBe(400);
  });

  it('answers 413 for a body over the size limit', async () => {
    const huge = `[${'"x",'.repeat(4_500_000)}"x"]`; // about 18 MB, over the 16 MiB default
    const res = await api('POST', '/api/admin/zipcodes/import', {
      raw: huge,
      token: await admin(),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/too large/);
  });

  it('is for admins only: 401 without a session, 403 for a signed-in user who is not an admin', async () => {
    expect((await api('POST', '/api/admin/zipcodes/import', { body: [] })).status).toBe(401);
    expect((await api('POST', '/api/admin/zipcodes/import', { body: [], token: 'not-a-session' })).status).toBe(401);
    const token = await signedInUser();
    const res = await api('POST', '/api/admin/zipcodes/import', { body: [buildAnalysis()], token });
    expect(res.status).toBe(403);
  });
});
