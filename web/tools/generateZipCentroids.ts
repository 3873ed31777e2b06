/**
 * Writes src/components/usmap/zipCentroids.json, the coordinates the map of /zip and /properties
 * places ZIP codes at (issue 25). Run it again when the sample data set changes:
 *
 *   npx tsx web/tools/generateZipCentroids.ts
 *
 * Source: the npm package `zipcodes` (BSD licence, Dav Glass; its U.S. table comes from
 * federalgovernmentzipcodes.us), the same package the sample data set takes its cities from.
 * The whole table (42,000 ZIP codes) would weigh some 600 kB in the browser, so the file holds:
 * - the centroid of every ZIP code of the sample data set (services/zipcodes/sample), exact;
 * - for every three-digit prefix (the Postal Service's sectional centre), the median of its ZIP
 *   codes' centroids, so any other ZIP code (an imported analysis, a report's address) still
 *   lands in its region; the map's legend says such places are approximate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  country: string;
}

const require = createRequire(import.meta.url);
const { codes } = require('zipcodes') as { codes: Record<string, ZipRecord> };

const SAMPLE = fileURLToPath(new URL('../../services/zipcodes/sample/analyses.json', import.meta.url));
const OUTPUT = fileURLToPath(new URL('../src/components/usmap/zipCentroids.json', import.meta.url));

/** Four decimals is about 10 m, finer than any dot on a 975-pixel map of the country. */
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/** The middle value: one far-off code (968 holds Wake Island beside Honolulu) cannot move it. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function usCentroids(): ZipRecord[] {
  return Object.values(codes).filter(
    (record) =>
      record.country === 'US' &&
      /^[0-9]{5}$/.test(record.zip) &&
      Number.isFinite(record.latitude) &&
      Number.isFinite(record.longitude) &&
      // A few military and unassigned codes carry 0,0: no place to draw.
      !(record.latitude === 0 && record.longitude === 0),
  );
}

function main() {
  const all = usCentroids();
  const byZip = new Map(all.map((record) => [record.zip, record]));

  const sampleZips = (JSON.parse(readFileSync(SAMPLE, 'utf8')) as { zipCode: string }[]).map((a) => a.zipCode).sort();
  const zips: Record<string, [number, number]> = {};
  for (const zip of sampleZips) {
    const record = byZip.get(zip);
    if (!record) throw new Error(`sample ZIP code ${zip} has no centroid in the zipcodes package`);
    zips[zip] = [round(record.longitude, 4), round(record.latitude, 4)];
  }

  const byPrefix = new Map<string, ZipRecord[]>();
  for (const record of all) {
    const prefix = record.zip.slice(0, 3);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), record]);
  }
  const prefixes: Record<string, [number, number]> = {};
  for (const prefix of [...byPrefix.keys()].sort()) {
    const records = byPrefix.get(prefix) ?? [];
    prefixes[prefix] = [
      round(median(records.map((r) => r.longitude)), 2),
      round(median(records.map((r) => r.latitude)), 2),
    ];
  }

  const data = {
    source:
      'npm zipcodes 8 (BSD licence; U.S. data from federalgovernmentzipcodes.us), web/tools/generateZipCentroids.ts',
    zips,
    prefixes,
  };
  writeFileSync(OUTPUT, `${JSON.stringify(data)}\n`);
  // In the repository's own format, so `npm run lint` passes on the generated file as it is.
  execFileSync('npx', ['biome', 'format', '--write', OUTPUT], { stdio: 'inherit' });
  console.log(`${OUTPUT}: ${Object.keys(zips).length} ZIP codes, ${Object.keys(prefixes).length} prefixes`);
}

main();
