import type { Db } from 'mongodb';
import { type Collections, type RequestDoc, collections, currentValue, prepare } from '../data/collections.js';
import { PropertiesRepository } from '../data/properties-repository.js';
import { SearchPostings } from '../data/search-postings.js';
import { propertyKey, zipOfKey } from '../domain/property-key.js';
import { coveredTerms } from '../domain/search-terms.js';

/** Requests read per round trip (by `$in` on the unique `seq` index). */
const BATCH = 500;

export interface PropertiesReport {
  requests: number;
  properties: number;
  /** Requests given (or moved to) their property by this run: none on a second run. */
  filed: number;
  /** Covered properties put on the covered list. */
  covered: number;
}

/**
 * Gives every stored request its property (decision 017): requests whose addresses normalise
 * alike share one, however they were typed. A covered request with its report covers its
 * property, in the covered list's order it had (its old place). Nothing is deleted: every request,
 * file and view stays as it was; only `property_id` and `addressKey` are set on requests.
 * Idempotent: a second run finds every request filed and every property listed, and changes nothing.
 */
export async function assignProperties(db: Db): Promise<PropertiesReport> {
  const c = collections(db);
  // The dashboard's counters, which the count of properties below is written into.
  await prepare(c);
  const properties = new PropertiesRepository(c);
  const coveredSearch = new SearchPostings(c, c.coveredPostings);
  const report: PropertiesReport = { requests: 0, properties: 0, filed: 0, covered: 0 };
  // Per property, the covered request with the latest old place: it stands for the property.
  const standing = new Map<string, { id: string; place: number }>();

  const top = await currentValue(c.counters, 'requests');
  for (let from = 1; from <= top; from += BATCH) {
    const seqs = Array.from({ length: Math.min(BATCH, top - from + 1) }, (_, i) => from + i);
    const docs = await c.requests
      .find({ seq: { $in: seqs } }, { projection: { status_history: 0, outbox: 0 } })
      .toArray();
    for (const doc of docs.sort((a, b) => a.seq - b.seq)) {
      await fileRequest(c, properties, doc, report, standing);
    }
  }

  for (const [propertyId, request] of standing) {
    const property = await properties.find(propertyId);
    if (!property) continue;
    if (property.report === null) {
      const place = await properties.cover(propertyId, request.id, property.address);
      await coveredSearch.add(place, coveredTerms(property.address, zipOfKey(property.key)));
      report.covered++;
    } else if (property.coveredSeq !== null) {
      // Filed again: adding a place's terms twice adds nothing.
      await coveredSearch.add(property.coveredSeq, coveredTerms(property.address, zipOfKey(property.key)));
    }
  }

  report.properties = await c.properties.countDocuments();
  // The dashboard's count of properties, from what is stored (a $set: the same figure on a rerun).
  await c.stats.updateOne({ _id: 'requests' }, { $set: { properties: report.properties } });
  return report;
}

async function fileRequest(
  c: Collections,
  properties: PropertiesRepository,
  doc: Omit<RequestDoc, 'status_history' | 'outbox'>,
  report: PropertiesReport,
  standing: Map<string, { id: string; place: number }>,
): Promise<void> {
  report.requests++;
  const key = propertyKey(doc.address);
  const property = await properties.claim(key, doc.address, doc.created_at);
  if (doc.property_id !== property.id || doc.addressKey !== key) {
    // Filed under another property before (a key that changed since): it leaves that one's list.
    if (doc.property_id && doc.property_id !== property.id) {
      await c.properties.updateOne({ _id: doc.property_id }, { $pull: { requests: { id: doc._id } } });
    }
    await c.requests.updateOne({ _id: doc._id }, { $set: { property_id: property.id, addressKey: key } });
    report.filed++;
  }
  await properties.addRequest(property.id, {
    id: doc._id,
    user: doc.requester?.userId ?? null,
    at: doc.created_at,
  });
  if (doc.status === 'covered' && doc.files?.report) {
    const place = doc.coveredSeq ?? 0;
    const best = standing.get(property.id);
    if (!best || place > best.place) standing.set(property.id, { id: doc._id, place });
  }
}
