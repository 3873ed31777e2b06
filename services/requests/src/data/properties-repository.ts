import type { ReportSummary } from '@homereport/contracts';
import { againOnDuplicate } from '@homereport/kit';
import { ObjectId } from 'mongodb';
import type { PropertyRecord, PropertyRequest, PropertyStore } from '../domain/ports.js';
import { cityOf } from '../domain/search-terms.js';
import { type Collections, type PropertyDoc, currentValue, nextValue } from './collections.js';

const toRecord = (doc: PropertyDoc): PropertyRecord => ({
  id: doc._id,
  key: doc.key,
  address: doc.address,
  requests: doc.requests ?? [],
  report: doc.report ?? null,
  coveredSeq: doc.coveredSeq ?? null,
  summary: doc.summary ?? null,
});

/** City first (an address without one last), then the address: the public search's city order. */
export function cityOrder(address: string): string {
  const city = cityOf(address).toLowerCase();
  return `${city === '' ? '\uffff' : city}\u0001${address.normalize('NFKC').toLowerCase()}`;
}

/**
 * Properties, one per normalised address. Reads and writes are by `_id`, by the unique `key`
 * (equality) or by `$in` on the unique `coveredSeq`: the shapes the embedded server answers from
 * an index (collections.ts). The one exception is the public search's order by city, below.
 */
export class PropertiesRepository implements PropertyStore {
  constructor(private readonly c: Collections) {}

  async claim(key: string, address: string, at: Date): Promise<PropertyRecord> {
    // An upsert on the unique key: of two replicas claiming a new address at once, one inserts
    // and the other's insert fails on the index; again, it finds the property the first made.
    const upsert = () =>
      this.c.properties.findOneAndUpdate(
        { key },
        { $setOnInsert: { _id: new ObjectId().toHexString(), key, address, created_at: at, requests: [] } },
        { upsert: true, returnDocument: 'after' },
      );
    // The embedded server may answer a racing upsert with no document: it exists, read it.
    const doc = (await againOnDuplicate(upsert)) ?? (await this.c.properties.findOne({ key }));
    if (!doc) throw new Error(`property ${key} not claimed`);
    return toRecord(doc);
  }

  async find(id: string): Promise<PropertyRecord | null> {
    const doc = await this.c.properties.findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async findMany(ids: string[]): Promise<PropertyRecord[]> {
    if (ids.length === 0) return [];
    const docs = await this.c.properties.find({ _id: { $in: [...new Set(ids)] } }).toArray();
    return docs.map(toRecord);
  }

  async addRequest(id: string, entry: PropertyRequest): Promise<PropertyRecord | null> {
    // $addToSet of the same entry (a repeated effect) adds nothing.
    const before = await this.c.properties.findOneAndUpdate(
      { _id: id },
      { $addToSet: { requests: entry } },
      { returnDocument: 'before' },
    );
    return before ? toRecord(before) : null;
  }

  async cover(id: string, requestId: string, address: string): Promise<number> {
    const coveredSeq = await nextValue(this.c.counters, 'covered-properties');
    await this.c.properties.updateOne(
      { _id: id },
      { $set: { report: requestId, coveredSeq, city_order: cityOrder(address) } },
    );
    return coveredSeq;
  }

  async standIn(id: string, requestId: string): Promise<void> {
    await this.c.properties.updateOne({ _id: id }, { $set: { report: requestId } });
  }

  async setSummary(id: string, summary: ReportSummary | null): Promise<PropertyRecord | null> {
    // One write by _id: the figures are replaced whole (a clear unsets them), never merged.
    const update = summary === null ? { $unset: { summary: '' as const } } : { $set: { summary } };
    const after = await this.c.properties.findOneAndUpdate({ _id: id }, update, { returnDocument: 'after' });
    return after ? toRecord(after) : null;
  }

  async uncover(id: string): Promise<void> {
    await this.c.properties.updateOne({ _id: id }, { $unset: { report: '', coveredSeq: '', city_order: '' } });
  }

  topCoveredSeq(): Promise<number> {
    return currentValue(this.c.counters, 'covered-properties');
  }

  async byCoveredSeqs(seqs: number[]): Promise<PropertyRecord[]> {
    if (seqs.length === 0) return [];
    // $in on the unique coveredSeq index.
    const docs = await this.c.properties.find({ coveredSeq: { $in: seqs } }).toArray();
    return docs.sort((a, b) => (b.coveredSeq ?? 0) - (a.coveredSeq ?? 0)).map(toRecord);
  }

  /**
   * Sorted by the database, never in this process. On MongoDB the `city_order` index walks the
   * covered properties in order; the embedded server (decision 005) uses an index only for an
   * equality on a unique one, so there this reads the covered properties inside the database
   * server, and only the page crosses to us (decision 017).
   */
  async byCity(seqs: number[] | null, offset: number, limit: number): Promise<PropertyRecord[]> {
    const filter = seqs === null ? { city_order: { $exists: true } } : { coveredSeq: { $in: seqs } };
    const docs = await this.c.properties
      .find(filter)
      .sort({ city_order: 1, coveredSeq: -1 })
      .skip(offset)
      .limit(limit)
      .toArray();
    return docs.filter((doc) => doc.city_order !== undefined).map(toRecord);
  }
}
