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
  url: doc.url ?? null,
  notes: doc.notes ?? null,
  status: doc.status,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  completed_at: doc.completed_at ?? null,
  requester: doc.requester ?? null,
  files: (doc.files ?? {}) as ReportFiles,
  pending: doc.pending ?? [],
});

/** Covered requests fetched per round of the covered list: a window of sequence numbers. */
const MAX_ROUNDS = 20;
/** Covered sequence numbers read per query when the whole catalogue is built. */
const CATALOGUE_WINDOW = 1000;

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

  async coveredPage(limit: number, before: number | null): Promise<{ items: RequestRecord[]; next: number | null }> {
    let next = before ?? (await currentValue(this.c.counters, 'covered'));
    const found: (Omit<RequestDoc, 'status_history' | 'outbox'> & { coveredSeq: number })[] = [];
    // Sequence numbers of requests that left the covered status are gaps: fetch windows of keys
    // (by the unique coveredSeq index) until the page is full, bounded in rounds.
    for (let round = 0; found.length < limit && next > 0 && round < MAX_ROUNDS; round++) {
      const keys = range(next, (limit - found.length) * 2 + 8);
      const docs = await this.c.requests.find({ coveredSeq: { $in: keys } }, READ).toArray();
      for (const doc of docs.sort((a, b) => (b.coveredSeq ?? 0) - (a.coveredSeq ?? 0))) {
        // Covered before a report file was required (legacy data): nothing to offer yet.
        if (doc.coveredSeq !== undefined && doc.status === 'covered' && doc.files?.report)
          found.push({ ...doc, coveredSeq: doc.coveredSeq });
      }
      next -= keys.length;
    }
    const items = found.slice(0, limit);
    const last = items[items.length - 1];
    const after = found.length > limit && last ? last.coveredSeq - 1 : next;
    return { items: items.map(toRecord), next: after > 0 ? after : null };
  }

  async allCovered(): Promise<{ id: string; address: string }[]> {
    const out: { id: string; address: string; coveredSeq: number }[] = [];
    const projection = { address: 1, coveredSeq: 1, status: 1, 'files.report.key': 1 };
    // Windows of the unique coveredSeq index, as coveredPage reads them, down to the first.
    for (let next = await currentValue(this.c.counters, 'covered'); next > 0; next -= CATALOGUE_WINDOW) {
      const docs = await this.c.requests
        .find({ coveredSeq: { $in: range(next, CATALOGUE_WINDOW) } }, { projection })
        .toArray();
      for (const doc of docs) {
        if (doc.status === 'covered' && doc.files?.report && doc.coveredSeq !== undefined)
          out.push({ id: doc._id, address: doc.address, coveredSeq: doc.coveredSeq });
      }
    }
    return out.sort((a, b) => b.coveredSeq - a.coveredSeq).map(({ id, address }) => ({ id, address }));
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
    if (change.to === 'covered') {
      // A new place at the top of the public list: most recently completed first.
      set.coveredSeq = await nextValue(this.c.counters, 'covered');
      set.completed_at = change.at;
    } else {
      update.$unset = { coveredSeq: '' };
    }
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
