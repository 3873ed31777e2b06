import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { absentZip, buildAnalysis } from '../../services/zipcodes/test/support/zipcodes.js';
import { api } from '../../test/support/api.js';
import { newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { newAdmin, signedInPage } from './fixtures.js';

/** Issue 19: admins import ZIP code analyses from the browser and read what was refused, and why. */
describe('the ZIP import screen', () => {
  const browser = useBrowser();
  let token: string;
  beforeAll(async () => {
    token = (await newAdmin()).token;
  });

  const jsonFile = (name: string, content: string) => ({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(content),
  });

  async function importPage(): Promise<Page> {
    const page = await signedInPage(browser(), token);
    await page.goto('/admin/zip-import');
    await page.getByRole('heading', { level: 1, name: 'Import ZIP Code Analyses' }).waitFor();
    return page;
  }

  async function choose(page: Page, file: ReturnType<typeof jsonFile>) {
    await page.getByTestId('import-input').setInputFiles(file);
  }

  it('imports the good records of a file, lists the refused ones with reasons, and the new ZIP code opens', async () => {
    const good = [buildAnalysis(), buildAnalysis(undefined, { price: 1_420_000, tier: 1 })];
    const badTier = buildAnalysis(await absentZip());
    (badTier.reportMetadata as { tier: string }).tier = 'Tier 1 - Ultra-Premium';
    const badRisk = buildAnalysis(await absentZip());
    (badRisk.executiveSummary as { riskLevel: string }).riskLevel = 'very high';
    const records = [good[0], badTier, good[1], badRisk, { ...buildAnalysis(), zipCode: '123' }, 'not an object'];

    // From the admin dashboard's link.
    const page = await signedInPage(browser(), token);
    await page.goto('/admin');
    await page.getByTestId('zip-import-link').click();
    await page.waitForURL('**/admin/zip-import');

    await choose(page, jsonFile('analyses.json', JSON.stringify(records)));
    await expect(page.getByTestId('import-file-name').textContent()).resolves.toBe('analyses.json');
    await page.getByTestId('import-submit').click();
    const report = page.getByTestId('import-report');
    await report.waitFor();

    await expect(page.getByTestId('import-count').textContent()).resolves.toBe('2');
    await expect(page.getByTestId('refused-count').textContent()).resolves.toBe('4');
    await expect(page.getByTestId('imported-zip').allTextContents()).resolves.toEqual(good.map((g) => g.zipCode));
    const rows = await page
      .getByTestId('refused-row')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows.map((r) => r[0])).toEqual(['1', '3', '4', '5']);
    expect(rows[0]?.[1]).toBe(badTier.zipCode);
    expect(rows[0]?.[2]).toMatch(/reportMetadata\.tier: must be 'TIER 1:'/);
    expect(rows[1]?.[1]).toBe(badRisk.zipCode);
    expect(rows[1]?.[2]).toMatch(/executiveSummary\.riskLevel: must be one of/);
    expect(rows[2]?.[2]).toMatch(/zipCode: must be five digits/);
    expect(rows[3]?.[1]).toBe('none given');
    expect(rows[3]?.[2]).toMatch(/must be an object/);
    await screenshot(page, 'zip-import-report');

    // Stored: the server has the good ones and not the bad.
    expect((await api('GET', `/api/zipcodes/${good[1]?.zipCode}`)).status).toBe(200);
    expect((await api('GET', `/api/zipcodes/${badTier.zipCode}`)).status).toBe(404);

    // The imported ZIP code opens at /zip/<code>, its price chart with distinct axis labels.
    await page.getByTestId('imported-zip').nth(1).click();
    await page.waitForURL(`**/zip/${good[1]?.zipCode}`);
    await expect(page.getByTestId('zip-detail-code').textContent()).resolves.toBe(`ZIP Code ${good[1]?.zipCode}`);
    const axis = page.locator(
      '[data-testid="price-trend-chart"] .recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value',
    );
    await axis.first().waitFor({ state: 'attached' });
    await screenshot(page, 'zip-import-imported-detail');
    const labels = await axis.allTextContents();
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.every((l) => /^\$\d+(\.\d+)?M$/.test(l))).toBe(true);
    await page.context().close();
  });

  it('says in words why a file was not imported: not JSON, the wrong kind, too large (with upload progress)', async () => {
    const page = await importPage();

    // Not a .json file: refused before anything is sent.
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/zipcodes/import')) posts += 1;
    });
    await choose(page, { name: 'analyses.csv', mimeType: 'text/csv', buffer: Buffer.from('zip,city\n') });
    await expect(page.getByTestId('import-file-problem').textContent()).resolves.toMatch(
      /analyses\.csv is not a \.json file/,
    );
    await expect(page.getByTestId('import-submit').count()).resolves.toBe(0);
    expect(posts).toBe(0);

    // JSON the server cannot read: a 400 in words.
    await choose(page, jsonFile('broken.json', '[{"zipCode": "02116",'));
    await expect(page.getByTestId('import-file-problem').count()).resolves.toBe(0);
    await page.getByTestId('import-submit').click();
    await expect(page.getByTestId('import-failed').textContent()).resolves.toMatch(
      /not imported: it is not a JSON array of ZIP code analyses/,
    );
    await screenshot(page, 'zip-import-not-json');

    // Over the gateway's 16 MiB: the upload shows its progress, then the 413 in words. The
    // upload is slowed (DevTools network emulation) so the progress is on screen long enough to read.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 6 * 1024 * 1024,
    });
    const huge = `[${'"x",'.repeat(4_500_000)}"x"]`; // about 18 MB
    await choose(page, jsonFile('everything.json', huge));
    await expect(page.getByTestId('import-chosen').textContent()).resolves.toContain('17.2 MB');
    await page.getByTestId('import-submit').click();
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="import-progress-text"]')?.textContent ?? '';
      const bar = document.querySelector<HTMLProgressElement>('[data-testid="import-progress-bar"]');
      return /^Uploading: ([1-9]|[1-9]\d)% \(\d+\.\d MB of 17\.2 MB\)$/.test(text) && (bar?.value ?? 0) > 0;
    });
    await screenshot(page, 'zip-import-progress');
    await expect(page.getByTestId('import-failed').textContent({ timeout: 30_000 })).resolves.toMatch(
      /too large to import at once\. Split the array/,
    );
    await expect(page.getByTestId('import-progress').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('is for admins: a signed-out visitor is sent to the admin sign-in, which returns here', async () => {
    const page = await newPage(browser());
    await page.goto('/admin/zip-import');
    await page.waitForURL((url) => url.pathname === '/admin-login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin/zip-import');
    await page.context().close();
  });
});
