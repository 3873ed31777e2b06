import { type OutboxEntry, markingRecorder } from '@homereport/kit';
import type { Db } from 'mongodb';
import { collections } from '../data/collections.js';
import { RequestsRepository } from '../data/requests-repository.js';
import { SearchPostings } from '../data/search-postings.js';
import { StatsRepository } from '../data/stats-repository.js';
import type { RequestRecord } from '../domain/ports.js';
import { STATUS_COUNTER, SYSTEM, summary } from '../domain/requests.js';
import { requestCovered, requestStatusChanged } from '../events/published.js';

/**
 * The pending mark of a change made here: not the event's id, so the service's consumer of
 * request-status-changed leaves the change's effects to this step (its cascade would move the
 * property to the top of the covered list). A run that died before clearing it finishes it.
 */
const PENDING_PREFIX = 'migrate-cover:';

export interface CoverMergedReport {
  /** Covered properties looked at. */
  properties: number;
  /** Open requests covered with their property's report by this run: none on a second run. */
  covered: number;
}

/**
 * Issue 36: the `properties` step merged requests spelled alike into one property, and covered
 * the property when one of them was covered; its other requests stayed open. Covering a request
 * covers its property (domain/requests.ts, coverOpenRequests), so they become covered now, as an
 * admin's cover would have done: the report request's files, marked shared, on each; the status
 * change in its history, by `system`; the dashboard's counters and the admin search moved; each
 * requester told once (a requester whose request of the property was covered already was told).
 * The property keeps its place in the covered list. Idempotent: a covered request is left alone.
 */
export async function coverMergedRequests(db: Db): Promise<CoverMergedReport> {
  const c = collections(db);
  // No relay in this process: the marker makes the running service's relay publish the events.
  const requests = new RequestsRepository(c, markingRecorder(db));
  const stats = new StatsRepository(c);
  const search = new SearchPostings(c);
  const report: CoverMergedReport = { properties: 0, covered: 0 };
  const covered = c.properties.find({}, { projection: { requests: 1, report: 1 } });
  for await (const property of covered) {
    if (!property.report) continue;
    report.properties++;
    const original = await requests.find(property.report);
    if (!original || original.status !== 'covered' || !original.files.report) continue;
    const siblings = await requests.findMany(property.requests.map((e) => e.id).filter((id) => id !== original.id));
    // Told already: whoever has a covered request of the property.
    const told = new Set([original, ...siblings].filter((r) => r.status === 'covered').map((r) => r.requester?.userId));
    const open = siblings
      .filter((r) => r.status !== 'covered')
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    const files = Object.fromEntries(
      Object.entries(original.files).map(([type, file]) => [type, { ...file, shared: true }]),
    );
    if (open.length > 0) await requests.setFiles(original.id, files, new Date());
    for (const record of open) {
      const userId = record.requester?.userId;
      const announce = !userId || !told.has(userId);
      if (userId) told.add(userId);
      await cover(requests, record, files, announce);
      report.covered++;
    }
    // Changes of this step whose effects a run that died did not finish (or just made above).
    for (const record of await requests.findMany(siblings.map((r) => r.id))) {
      for (const mark of record.pending.filter((p) => p.startsWith(PENDING_PREFIX))) {
        const [from, ...id] = mark.slice(PENDING_PREFIX.length).split(':') as [RequestRecord['status'], string];
        const eventId = id.join(':');
        await stats.applyRequestDelta(eventId, { [STATUS_COUNTER[from]]: -1, covered: 1 });
        await search.setStatus(record.seq, 'covered');
        await requests.clearPending(record.id, mark);
      }
    }
  }
  return report;
}

async function cover(
  requests: RequestsRepository,
  record: RequestRecord,
  files: RequestRecord['files'],
  announce: boolean,
): Promise<void> {
  const at = new Date();
  await requests.setFiles(record.id, files, at);
  const changed = requestStatusChanged({
    requestId: record.id,
    from: record.status,
    to: 'covered',
    by: SYSTEM,
    at: at.toISOString(),
  });
  const events: OutboxEntry[] = [changed];
  // As an admin's cover: the "ready" event the first time a request is covered (no email for an
  // anonymous request, which has no address).
  if (announce && record.completed_at === null)
    events.push(
      requestCovered({
        request: { ...summary(record), status: 'covered' },
        requester: record.requester,
        completed_at: at.toISOString(),
      }),
    );
  await requests.changeStatus(
    record.id,
    { from: record.status, to: 'covered', by: SYSTEM, at },
    events,
    `${PENDING_PREFIX}${record.status}:${changed.id}`,
  );
}
