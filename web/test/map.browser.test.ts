import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ZipListPage } from '@homereport/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../../test/support/api.js';
import { PHONE, SCREENSHOT_DIR, newPage, screenshot, useBrowser } from '../../test/support/browser.js';
import { centroidTable, project } from '../src/components/usmap/geometry.js';
import { placeMarkers } from '../src/components/usmap/placement.js';
import { coverViaApi, createRequestViaApi, newAdmin } from './fixtures.js';

// axe-core's own build, evaluated in the page (the pages' policy allows no inline script).
const axeSource: string = createRequire(import.meta.url)('axe-core').source;

/** axe's rule ids that the map (and what is inside it) breaks. */
async function mapViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Element, options: object) => Promise<{ violations: { id: string }[] }> };
    };
    const map = document.querySelector('[data-testid="us-map"]');
    if (!map) return ['no map'];
    return (await axe.run(map, { resultTypes: ['violations'] })).violations.map((v) => v.id);
  });
}

/**
 * The map of /zip and /properties (issue 25): loaded only when asked for, drawing the same items
 * as the list below it, coloured as its legend says.
 */
describe('the map of /zip and /properties', () => {
  const browser = useBrowser();

  /** Every script the page fetched whose name starts with the map's chunk. */
  function mapChunkRequests(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/UsMap-[^/]*\.js$/.test(new URL(request.url()).pathname)) seen.push(request.url());
    });
    return seen;
  }

  /** How many of these ZIP codes the map can place (other test files import made-up ZIP codes). */
  const placeable = (zips: string[]) =>
    placeMarkers(
      zips.map((zipCode) => ({ key: zipCode, zipCode, label: zipCode, colour: '' })),
      centroidTable,
      project,
    ).placed.length;

  /** The ZIP codes the map draws: each point's, and each of a cluster's items. */
  const drawnZips = (page: Page) =>
    page.evaluate(() => [
      ...[...document.querySelectorAll('[data-testid="map-point"]')].map((n) => n.getAttribute('data-zip') ?? ''),
      ...[...document.querySelectorAll('[data-testid="map-cluster"]')].flatMap((n) =>
        (n.getAttribute('data-zips') ?? '').split(' '),
      ),
    ]);

  const attributes = (page: Page, testId: string, name: string) =>
    page
      .getByTestId(testId)
      .evaluateAll((nodes, attribute) => nodes.map((node) => node.getAttribute(attribute) ?? ''), name);

  /** Every point's centre lies inside the drawn states' bounds. */
  async function pointsInsideStates(page: Page): Promise<boolean> {
    return page.evaluate(() => {
      const states = document.querySelector('.us-map-states')?.getBoundingClientRect();
      if (!states) return false;
      return [...document.querySelectorAll('[data-testid="map-point"], [data-testid="map-cluster"] circle')].every(
        (point) => {
          const box = point.getBoundingClientRect();
          const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
          return x >= states.left && x <= states.right && y >= states.top && y <= states.bottom;
        },
      );
    });
  }

  it('on /zip, filtered by tier, draws one point per listed ZIP code, coloured by tier, and loads only when opened', async () => {
    const page = await newPage(browser());
    const chunks = mapChunkRequests(page);
    await page.goto('/zip');
    await page.getByTestId('zip-card').first().waitFor();
    await expect(page.getByTestId('us-map').count()).resolves.toBe(0);

    await page.getByTestId('zip-tier-filter').selectOption('1');
    const expected = (await api<ZipListPage>('GET', '/api/zipcodes?tier=1&limit=24')).body;
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="zip-showing"]')?.textContent === String(n) &&
        document.querySelector('[data-testid="zip-results"][aria-busy="true"]') === null,
      expected.showing,
    );
    // The page and the list are on screen; the map's code and geometry were never fetched.
    expect(chunks).toEqual([]);

    await page.getByTestId('map-toggle').click();
    await page.getByTestId('map-point').first().waitFor();
    expect(chunks).toHaveLength(1);
    await expect(page.getByTestId('map-toggle').getAttribute('aria-pressed')).resolves.toBe('true');
    await page.getByTestId('us-map').screenshot({ path: join(SCREENSHOT_DIR, 'zip-map-tier1-first.png') });

    const listed = await attributes(page, 'zip-card', 'data-zip');
    expect(listed).toEqual(expected.zipCodes.map((zip) => zip.zipCode));
    const drawn = await drawnZips(page);
    // The same set: each card that has a known place is a point or counted in a cluster (all of them, with the sample data).
    expect(drawn.length).toBe(placeable(listed));
    expect(drawn.every((zip) => listed.includes(zip))).toBe(true);
    if (drawn.length < listed.length) {
      await expect(page.getByTestId('map-unplaced').textContent()).resolves.toContain(
        `${listed.length - drawn.length} from the list ${listed.length - drawn.length === 1 ? 'is' : 'are'} not on the map`,
      );
    }
    expect(drawn.length).toBeGreaterThanOrEqual(15);
    // Every Tier 1 market in the one colour the legend gives Tier 1.
    const fills = new Set(await attributes(page, 'map-point', 'fill'));
    expect(fills.size).toBe(1);
    const legend = page.getByTestId('map-legend');
    await expect(legend.textContent()).resolves.toContain('Tier 1 - Ultra-Premium');
    const tier1Swatch = await legend
      .locator('li', { hasText: 'Tier 1' })
      .locator('.us-map-swatch')
      .evaluate((node) => getComputedStyle(node).backgroundColor);
    const pointFill = await page
      .getByTestId('map-point')
      .first()
      .evaluate((node) => getComputedStyle(node).fill);
    expect(pointFill).toBe(tier1Swatch);
    expect(await pointsInsideStates(page)).toBe(true);
    // Named for a screen reader: the map by its title, each point by its place.
    await expect(page.locator('[data-testid="us-map-svg"] > title').textContent()).resolves.toMatch(
      /^Map of the \d+ ZIP codes listed below, coloured by investment tier$/,
    );
    await expect(page.getByTestId('map-point').first().getAttribute('aria-label')).resolves.toMatch(
      /^\d{5}, .+, [A-Z]{2}: TIER 1$/,
    );
    await expect(mapViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'zip-map-tier1');
    await page.getByTestId('us-map').screenshot({ path: join(SCREENSHOT_DIR, 'zip-map-tier1-map.png') });

    // Coloured by appreciation: the legend's ranges, and every point in one of their colours.
    await page.getByTestId('map-measure').selectOption('appreciation');
    // The address changes first, then the page: wait for the new legend.
    await legend.getByText('Below 0.0%').waitFor();
    const swatches = await legend
      .locator('.us-map-swatch')
      .evaluateAll((nodes) => nodes.map((node) => getComputedStyle(node).backgroundColor));
    const appreciationFills = await page
      .getByTestId('map-point')
      .evaluateAll((nodes) => nodes.map((node) => getComputedStyle(node).fill));
    expect(appreciationFills.every((fill) => swatches.includes(fill))).toBe(true);
    expect(new Set(appreciationFills).size).toBeGreaterThan(1);
    await page.getByTestId('us-map').screenshot({ path: join(SCREENSHOT_DIR, 'zip-map-appreciation-map.png') });

    // The map is in the address with the filter: a reload (or a shared link) shows the same.
    expect(new URL(page.url()).searchParams.get('map')).toBe('1');
    await page.reload();
    await page.getByTestId('map-point').first().waitFor();
    await expect(drawnZips(page).then((zips) => zips.length)).resolves.toBe(drawn.length);
    await expect(page.getByTestId('map-measure').inputValue()).resolves.toBe('appreciation');

    // A point opens its ZIP code as its card does (signed out: the sign-in prompt).
    await page.getByTestId('map-point').first().click();
    await page.getByRole('dialog').waitFor();
    await page.close();
  });

  it('opens from a link on a phone, fits its width, and keeps the points out of the tab order', async () => {
    const page = await newPage(browser(), PHONE);
    await page.goto('/zip?tier=2&map=1&measure=yield');
    await page.getByTestId('map-point').first().waitFor();
    await expect(page.getByTestId('map-measure').inputValue()).resolves.toBe('yield');
    await page.getByTestId('map-legend').getByText('Gross rental yield').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Keyboard users go through the list, which holds the same items: no point takes focus.
    await expect(
      page
        .getByTestId('map-point')
        .evaluateAll((nodes) => nodes.filter((node) => node.hasAttribute('tabindex')).length),
    ).resolves.toBe(0);
    await page.getByTestId('us-map').screenshot({ path: join(SCREENSHOT_DIR, 'zip-map-yield-phone.png') });
    await page.close();
  });

  it('on /properties, draws one point per listed report at its ZIP code, and says which it cannot place', async () => {
    const admin = (await newAdmin()).token;
    const label = `Maptest${randomUUID().slice(0, 8)}`;
    const addresses = [
      `12 ${label} Street, Boston, MA 02116`,
      `14 ${label} Street, Boston, MA 02116`,
      `9 ${label} Lane, Austin, TX 78704`,
      `3 ${label} Way, Chicago, IL 60611`,
    ];
    for (const address of addresses) await coverViaApi(admin, await createRequestViaApi(address), address);
    // A label of its own: the search finds parts of words, so one holding `label` would match it too.
    // Letters only: five digits in a row anywhere in an address read as its ZIP code, and a
    // random hex label held such a run now and then (CI, 26 November), which the map then placed.
    const nowhere = `Nomap${randomUUID()
      .slice(0, 8)
      .replace(/[0-9]/g, (d) => String.fromCharCode(0x67 + Number(d)))}`;
    const unplaceable = `1 ${nowhere} Road, Springfield`;
    await coverViaApi(admin, await createRequestViaApi(unplaceable), unplaceable);

    const page = await newPage(browser());
    const chunks = mapChunkRequests(page);
    await page.goto(`/properties?q=${label}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="property-card"]').length === 4);
    expect(chunks).toEqual([]);

    await page.getByTestId('map-toggle').click();
    await page.getByTestId('map-point').first().waitFor();
    expect(chunks).toHaveLength(1);
    const points = page.getByTestId('map-point');
    // Two reports in one ZIP code: one circle that says 2, rather than one point on the other.
    expect((await attributes(page, 'map-point', 'data-zip')).sort()).toEqual(['60611', '78704']);
    await expect(attributes(page, 'map-cluster', 'data-count')).resolves.toEqual(['2']);
    await expect(page.getByTestId('map-cluster').locator('text').textContent()).resolves.toBe('2');
    const clusterLabel = (await attributes(page, 'map-cluster', 'aria-label'))[0] ?? '';
    expect(clusterLabel).toMatch(/^2 here: /);
    expect(clusterLabel).toContain(addresses[0]);
    expect(clusterLabel).toContain(addresses[1]);
    expect((await attributes(page, 'map-point', 'aria-label')).sort()).toEqual([addresses[3], addresses[2]].sort());
    await expect(page.getByTestId('map-note').textContent()).resolves.toContain(
      'A circle with a number stands for that many close together.',
    );
    expect(await pointsInsideStates(page)).toBe(true);
    await expect(page.getByTestId('map-note').textContent()).resolves.toContain(
      "at the centre of its address's ZIP code",
    );
    await expect(page.getByTestId('map-legend').textContent()).resolves.toContain('Property report');
    await screenshot(page, 'properties-map');
    await page.getByTestId('us-map').screenshot({ path: join(SCREENSHOT_DIR, 'properties-map-map.png') });

    // A search the map follows: the report without a ZIP code is listed, and the map says it is not on it.
    await page.getByTestId('properties-search').fill(nowhere);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="property-card"]').length === 1);
    await page.getByTestId('map-unplaced').waitFor();
    await expect(points.count()).resolves.toBe(0);
    // Said once, in plain words: no list of "no ZIP code, no ZIP code, ...".
    await expect(page.getByTestId('map-unplaced').textContent()).resolves.toBe(
      ' 1 from the list is not on the map, as it has no ZIP code we can place.',
    );
    await page.close();
  });
});
