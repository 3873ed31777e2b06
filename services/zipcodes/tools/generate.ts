// npm run zip:sample: writes the sample data set (services/zipcodes/sample/analyses.json) from
// neighborhoods.ts. Deterministic: running it again gives the same file, byte for byte.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BUNDLED_SAMPLE } from '../src/config.js';
import { checkAnalysis } from '../src/domain/analyses.js';
import { generateAnalysis, samplePlaces } from './generator.js';
import { SAMPLE_PLACES } from './neighborhoods.js';

const zipcodes = createRequire(import.meta.url)('zipcodes') as {
  lookup(zip: string): { city: string; state: string } | undefined;
};

const analyses = samplePlaces(SAMPLE_PLACES, (zip) => zipcodes.lookup(zip)).map((place) => generateAnalysis(place));
for (const analysis of analyses) {
  const checked = checkAnalysis(analysis);
  if (!checked.ok) throw new Error(`${analysis.zipCode}: ${checked.errors.join('; ')}`);
}
writeFileSync(BUNDLED_SAMPLE, `${JSON.stringify(analyses, null, 2)}\n`);
console.log(`Wrote ${analyses.length} sample analyses to ${BUNDLED_SAMPLE}`);
