import { markingRecorder } from '@homereport/kit';
import type { Db } from 'mongodb';
import { ActivityRepository } from '../data/activity-repository.js';
import { collections } from '../data/collections.js';
import { PropertiesRepository } from '../data/properties-repository.js';
import { RequestsRepository } from '../data/requests-repository.js';
import { SearchPostings } from '../data/search-postings.js';
import { StatsRepository } from '../data/stats-repository.js';
import { Requests, SYSTEM } from '../domain/requests.js';

export interface CoverMergedReport {
  /** Covered properties looked at. */
  properties: number;
  /** Open requests covered with their property's report by this run: none on a second run. */
  covered: number;
}

/**
 * Issue 36: the `properties` step merged requests spelled alike into one property, and covered
 * the property when one of them was covered; its other requests stayed open. They become covered
 * now by the domain's own cover of a property's open requests (domain/requests.ts,
 * coverOpenRequests), as an admin's cover would have done: the report request's files, marked
 * shared, on each; the status change in its history, by `system`; the dashboard's counters and
 * the admin search moved; each requester told once. The property keeps its place in the covered
 * list (a follower's change moves no property). Idempotent: a covered request is left alone; a
 * change whose effects a run that died did not finish is finished by the running service, as a
 * follower's, when its event comes back.
 */
export async function coverMergedRequests(db: Db): Promise<CoverMergedReport> {
  const c = collections(db);
  const requests = new Requests({
    // No relay in this process: the marker makes the running service's relay publish the events.
    requests: new RequestsRepository(c, markingRecorder(db)),
    properties: new PropertiesRepository(c),
    stats: new StatsRepository(c),
    activity: new ActivityRepository(c),
    search: new SearchPostings(c),
    coveredSearch: new SearchPostings(c, c.coveredPostings),
    // The covered list's entries do not change (a property's report request stays), so the
    // answers kept under its generation stay right; no link is signed either.
    generation: { key: '', current: async () => null, bump: async () => {} },
    signer: { sign: () => '' },
    onCacheError: () => {},
  });
  const report: CoverMergedReport = { properties: 0, covered: 0 };
  for await (const property of c.properties.find({}, { projection: { report: 1 } })) {
    if (!property.report) continue;
    report.properties++;
    report.covered += await requests.coverOpenRequests(
      property._id,
      property.report,
      SYSTEM,
      `migrate:${property._id}`,
    );
  }
  return report;
}
