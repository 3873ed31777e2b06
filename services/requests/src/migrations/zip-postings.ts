import type { Db } from 'mongodb';
import { collections, currentValue } from '../data/collections.js';
import { PropertiesRepository } from '../data/properties-repository.js';
import { SearchPostings } from '../data/search-postings.js';
import { zipOfKey } from '../domain/property-key.js';
import { zipTerm } from '../domain/search-terms.js';

/** Places of the covered list read per round trip (by `$in` on the unique `coveredSeq` index). */
const BATCH = 500;

/**
 * Files every property covered before the ZIP filter of the covered list (api.md "Report summary")
 * under its ZIP code's posting list, as a covering does since. Idempotent ($addToSet): a second
 * run adds nothing. Answers how many places it read and filed.
 */
export async function fileZipCodes(db: Db): Promise<{ covered: number; filed: number }> {
  const c = collections(db);
  const properties = new PropertiesRepository(c);
  const postings = new SearchPostings(c, c.coveredPostings);
  const top = await currentValue(c.counters, 'covered-properties');
  const report = { covered: 0, filed: 0 };
  for (let from = 1; from <= top; from += BATCH) {
    const places = Array.from({ length: Math.min(BATCH, top - from + 1) }, (_, i) => from + i);
    for (const property of await properties.byCoveredSeqs(places)) {
      report.covered++;
      const zip = zipOfKey(property.key);
      if (zip === null || property.coveredSeq === null) continue;
      await postings.add(property.coveredSeq, [zipTerm(zip)]);
      report.filed++;
    }
  }
  return report;
}
