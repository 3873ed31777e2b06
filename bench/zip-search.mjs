// `npm run bench:zip-search`: how fast the ZIP list's search answers as a user types, with 5,000
// analyses. Two parts, no servers of their own:
//   - the search itself (zipListPage from packages/contracts, what the zipcodes service runs per
//     call): milliseconds per search for each prefix of a typed query (goal: under 5 ms);
//   - the /zip page in Debian's chromium (web/dist served by a small static server, the list
//     API answered in the page by the same zipListPage): milliseconds from each keystroke to its
//     cards on screen, the 180 ms debounce included (goal: under 500 ms).
// The browser tests check what each keystroke shows (web/test/zip.browser.test.ts); this measures.
// Settings: BENCH_COUNT (5000), BENCH_ROUNDS (200), CHROMIUM_PATH (/usr/bin/chromium).
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const { indexZipList, zipListPage } = await import('../packages/contracts/src/index.ts');
const { manyZipItems, zipListAnswer } = await import('../test/support/zip-list.ts');

const COUNT = Number(process.env.BENCH_COUNT ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const TYPED = 'Springf';
const log = (m) => console.log(`[bench] ${m}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const index = indexZipList(manyZipItems(COUNT));
const prefixes = [...TYPED].map((_, i) => TYPED.slice(0, i + 1));

// Part 1: the search alone.
const searchRows = [];
for (const q of [...prefixes, '1', '12', '123']) {
  for (let i = 0; i < 20; i++) zipListPage(index, { q }, 24, 0); // warm up
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    zipListPage(index, { q }, 24, 0);
    times.push(performance.now() - started);
  }
  searchRows.push({
    q,
    median: median(times),
    max: Math.max(...times),
    showing: zipListPage(index, { q }, 24, 0).showing,
  });
}

// Part 2: the page in a browser.
const dist = join(import.meta.dirname, '..', 'web', 'dist');
if (!existsSync(join(dist, 'index.html'))) {
  console.error('[bench] web/dist is missing: run `npm run build -w web` first');
  process.exit(1);
}
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(dist, path);
  const found = path !== '/' && existsSync(file) ? file : join(dist, 'index.html'); // the SPA's routes
  res.writeHead(200, { 'content-type': types[extname(found)] ?? 'application/octet-stream' });
  res.end(readFileSync(found));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const keystrokes = [];
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base })).newPage();
  const requested = [];
  await page.route('**/api/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname !== '/api/zipcodes') return route.fulfill({ status: 404, body: '{"error":"not here"}' });
    requested.push(url.searchParams.get('q'));
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(zipListAnswer(index, url)),
    });
  });
  await page.goto('/zip');
  await page.getByTestId('zip-card').first().waitFor();
  const input = page.getByTestId('zip-search');
  await input.click();
  for (const key of TYPED) {
    const started = performance.now();
    await page.keyboard.type(key);
    const typed = await input.inputValue();
    const showing = zipListPage(index, { q: typed }, 24, 0).showing;
    // Its own answer on screen, not the previous one (which often shows the same cards).
    while (!requested.includes(typed.toLowerCase())) await new Promise((r) => setTimeout(r, 5));
    await page.waitForFunction(
      ({ n, term }) => {
        if (document.querySelector('[data-testid="zip-showing"]')?.textContent !== String(n)) return false;
        if (document.querySelector('[data-testid="zip-results"][aria-busy="true"]')) return false;
        const cards = [...document.querySelectorAll('[data-testid="zip-card"]')];
        return cards.length > 0 && cards.every((c) => c.textContent?.toLowerCase().includes(term.toLowerCase()));
      },
      { n: showing, term: typed },
      { polling: 'raf' },
    );
    keystrokes.push({ typed, ms: performance.now() - started, showing });
  }
} finally {
  await browser.close();
  server.close();
}

log(`${COUNT} analyses, ${ROUNDS} searches per query`);
console.log('\n| query | matches | search median, ms | max, ms |\n|---|---|---|---|');
for (const r of searchRows) console.log(`| ${r.q} | ${r.showing} | ${r.median.toFixed(3)} | ${r.max.toFixed(3)} |`);
console.log('\n| typed | matches | keystroke to cards on screen, ms |\n|---|---|---|');
for (const k of keystrokes) console.log(`| ${k.typed} | ${k.showing} | ${Math.round(k.ms)} |`);
const slowestSearch = Math.max(...searchRows.map((r) => r.median));
const slowestKey = Math.max(...keystrokes.map((k) => k.ms));
console.log(
  `\nslowest search median ${slowestSearch.toFixed(3)} ms (goal under 5): ${slowestSearch < 5 ? 'met' : 'NOT met'}; ` +
    `slowest keystroke ${Math.round(slowestKey)} ms (goal under 500): ${slowestKey < 500 ? 'met' : 'NOT met'}`,
);
