import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ZipListItem } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { absentZip, buildAnalysis, importAnalyses, zipImport } from './support/zipcodes.js';

describe('npm run zip:import', () => {
  it('imports every .json file of a folder, reports refused records by file and position, and refreshes the list', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'zip-import-'));
    const [a, b, c] = [buildAnalysis(), buildAnalysis(), buildAnalysis()];
    const bad = buildAnalysis(await absentZip());
    (bad.demographics as { education: { bachelors: number } }).education.bachelors = 42;
    // Warm the caches first (the list, and an older version of c read through the detail), so
    // seeing the new records proves the command invalidated what the running service keeps.
    const olderC = buildAnalysis(c.zipCode, { price: 111_000 });
    expect((await importAnalyses([olderC])).body.imported).toEqual([c.zipCode]);
    expect((await api('GET', `/api/zipcodes/${c.zipCode}`)).body.zipCode).toEqual(olderC);
    await api('GET', '/api/zipcodes');

    writeFileSync(join(folder, 'batch.json'), JSON.stringify([a, bad, b]));
    mkdirSync(join(folder, 'more'));
    writeFileSync(join(folder, 'more', 'single.json'), JSON.stringify(c));
    writeFileSync(join(folder, 'broken.json'), '{ not json');
    writeFileSync(join(folder, 'notes.txt'), 'ignored');

    const run = await zipImport(folder);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Imported 3 of 4 analyses/);
    expect(run.stdout).toMatch(new RegExp(`batch\\.json \\[1\\] \\(${bad.zipCode}\\)`));
    expect(run.stdout).toMatch(/demographics\.education\.bachelors: must be a fraction between 0 and 1/);
    expect(run.stderr).toMatch(/broken\.json: not readable JSON/);

    const zips = ((await api('GET', '/api/zipcodes')).body.zipCodes as ZipListItem[]).map((i) => i.zipCode);
    expect(zips).toEqual(expect.arrayContaining([a.zipCode, b.zipCode, c.zipCode]));
    expect(zips).not.toContain(bad.zipCode);
    expect((await api('GET', `/api/zipcodes/${c.zipCode}`)).body.zipCode).toEqual(c);
  });

  it('exits 0 when everything was imported, and 2 with usage when given nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'zip-import-'));
    writeFileSync(join(folder, 'one.json'), JSON.stringify([buildAnalysis()]));
    const ok = await zipImport(join(folder, 'one.json'));
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Imported 1 of 1 analyses/);

    const usage = await zipImport();
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Usage: npm run zip:import -- <file-or-folder>/);
  });
});
