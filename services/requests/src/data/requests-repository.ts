import type { RequestStatus } from '@homereport/contracts';
import type { OutboxEntry, OutboxRecorder } from '@homereport/kit';
import { ObjectId } from 'mongodb';
import type { FileRef, NewRequest, ReportFiles, RequestRecord, RequestStore, StatusChange } from '../domain/ports.js';
import { type Collections, type RequestDoc, currentValue, nextValue } from './collections.js';

/** What a read needs; the history and the outbox stay in the database. */
const READ = { projection: { status_history: 0, outbox: 0 } } as const;

const toRecord = (doc: Omit<RequestDoc, 'status_history' | 'outbox'>): RequestRecord => ({
  id: doc._id,
  seq: doc.seq,
  address: doc.address,
  addressKey: doc.addressKey,
  propertyId: doc.property_id ?? '',
  url: doc.url ?? null,
  notes: doc.notes ?? null,
  status: doc.status,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  completed_at: doc.completed_at ?? null,
  requester: doc.requester ?? null,
  files: (doc.files ?? {}) as ReportFiles,
  summary: doc.summary ?? null,
  pending: doc.pending ?? [],
});

export class RequestsRepository implements RequestStore {
  constructor(
    private readonly c: Collections,
    private readonly outbox: OutboxRecorder,
  ) {}

  newId(): string {
    return new ObjectId().toHexString();
  }

  async insert(
    request: NewRequest,
    events: OutboxEntry[],
    pendingId: string,
    ready?: Promise<unknown>,
  ): Promise<RequestRecord> {
    // The sequence number is taken while the outbox marks the document (and `ready` runs): the
    // insert waits for one round trip before it, not two (MongoDB slow, the deadline counts).
    const seq = nextValue(this.c.counters, 'requests');
    seq.catch(() => undefined); // awaited in the write; not an unhandled rejection if the marker fails first
    const doc: RequestDoc = {
      _id: request.id,
      seq: 0,
      address: request.address,
      addressKey: request.addressKey,
      property_id: request.propertyId,
      url: request.url,
      notes: request.notes,
      status: 'requested',
      created_at: request.created_at,
      updated_at: request.created_at,
      completed_at: null,
      requester: request.requester,
      files: {},
      status_history: [],
      pending: [pendingId],
      outbox: events,
    };
    await this.outbox.record('requests', doc._id, async () => {
      [doc.seq] = await Promise.all([seq, ready]);
      return this.c.requests.insertOne(doc);
    });
    return toRecord(doc);
  }

  async find(id: string): Promise<RequestRecord | null> {
    // Equality on _id.
    const doc = await this.c.requests.findOne({ _id: id }, READ);
    return doc ? toRecord(doc) : null;
  }

  async findMany(ids: string[]): Promise<RequestRecord[]> {
    if (ids.length === 0) return [];
    // $in on _id.
    const docs = await this.c.requests.find({ _id: { $in: ids } }, READ).toArray();
    return docs.map(toRecord);
  }

  async newest(limit: number, atMost?: number): Promise<RequestRecord[]> {
    const top = atMost ?? (await this.topSeq());
    // The newest `limit` sequence numbers, computed, not sorted for.
    return this.findBySeqs(range(top, limit));
  }

  async findBySeqs(seqs: number[]): Promise<RequestRecord[]> {
    if (seqs.length === 0) return [];
    // $in on the unique seq index.
    const docs = await this.c.requests.find({ seq: { $in: seqs } }, READ).toArray();
    return docs.sort((a, b) => b.seq - a.seq).map(toRecord);
  }

  topSeq(): Promise<number> {
    return currentValue(this.c.counters, 'requests');
  }

  async changeStatus(
    id: string,
    change: StatusChange,
    events: OutboxEntry[],
    pendingId: string,
  ): Promise<{ after: RequestRecord; previous: RequestStatus } | null> {
    const set: Record<string, unknown> = { status: change.to, updated_at: change.at };
    const update: Record<string, unknown> = {
      $set: set,
      $push: {
        status_history: { $each: [change], $slice: -100 },
        outbox: { $each: events },
        pending: pendingId,
      },
    };
    if (change.to === 'covered') set.completed_at = change.at;
    // The covered list is of properties now (properties-repository.ts); a place a request held
    // before them goes when it leaves covered.
    else update.$unset = { coveredSeq: '' };
    // By _id alone (anything more would scan on the embedded server); the document as it was
    // before tells which status the counters move away from.
    const before = await this.outbox.record('requests', id, () =>
      this.c.requests.findOneAndUpdate({ _id: id }, update, {
        projection: { status: 1 },
        returnDocument: 'before',
      }),
    );
    if (!before) return null;
    const after = await this.find(id);
    return after ? { after, previous: before.status } : null;
  }

  async setFiles(
    id: string,
    files: ReportFiles,
    at: Date,
  ): Promise<{ after: RequestRecord; replaced: FileRef[] } | null> {
    const set: Record<string, unknown> = { updated_at: at };
    for (const [type, file] of Object.entries(files)) set[`files.${type}`] = file;
    // One round trip: the document as it was tells which files were replaced, and with this
    // write's fields laid over it, how it is now (an upload with MongoDB slow waits for one).
    const before = await this.c.requests.findOneAndUpdate(
      { _id: id },
      { $set: set },
      { ...READ, returnDocument: 'before' },
    );
    if (!before) return null;
    const replaced = Object.entries(files).flatMap(([type, file]) => {
      const old = before.files?.[type];
      return old && old.key !== file?.key ? [old] : [];
    });
    const after = toRecord({ ...before, updated_at: at, files: { ...before.files, ...files } });
    return { after, replaced };
  }

  async setProperty(id: string, propertyId: string, addressKey: string): Promise<void> {
    await this.c.requests.updateOne({ _id: id }, { $set: { property_id: propertyId, addressKey } });
  }

  async clearPending(id: string, pendingId: string): Promise<void> {
    await this.c.requests.updateOne({ _id: id }, { $pull: { pending: pendingId } });
  }
}

/** [top, top-1, ..., top-count+1], stopping at 1. */
function range(top: number, count: number): number[] {
  const out: number[] = [];
  for (let n = top; n > 0 && out.length < count; n--) out.push(n);
  return out;
}
