import { type MongoDeadline, currentMongoDeadline, withEarliestMongoDeadline } from '@homereport/kit';

/**
 * Group commit: requests that arrive while a write is in flight are written together by the next
 * one (one insertMany instead of one insert each), and each caller is answered with its own item's
 * outcome once that write returned. Under no load a batch is the one item, written at once (the
 * batch starts on the next turn of the event loop, which adds no measurable wait); under load the
 * batches grow by themselves to what arrived meanwhile, so the database sees a few round trips per
 * batch instead of a few per lead (docs/decisions/004).
 *
 * This is not a lock and holds no state that a second replica would need: each batch is an
 * ordinary set of atomic writes, and two batches (of this process or another) may run at once.
 */
interface GroupCommitOptions {
  /** Most items in one batch. */
  maxBatch: number;
  /** Batches in flight at once from this process (the next one is gathered meanwhile). */
  parallel: number;
}

interface Waiting<I, R> {
  item: I;
  /** The MongoDB deadline of the request that submitted it (kit mongo-deadline). */
  deadline: MongoDeadline | undefined;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit<I, R> {
  private queue: Waiting<I, R>[] = [];
  private running = 0;
  private scheduled = false;

  /** `write` answers one result (or an Error for that item alone) per item, in order. */
  constructor(
    private readonly write: (items: I[]) => Promise<(R | Error)[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, deadline: currentMongoDeadline(), resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.options.parallel || this.queue.length === 0) return;
    this.scheduled = true;
    // Requests parsed in this same turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.running < this.options.parallel && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running += 1;
      // Under the earliest deadline of the batch's requests, not that of whichever request's turn
      // of the event loop started it: a lead that waited for the batch before its own then fails
      // within its own deadline (it took two deadlines, ~3 s, with MongoDB unreachable, bench:faults).
      withEarliestMongoDeadline(
        batch.map((w) => w.deadline),
        () => this.write(batch.map((w) => w.item)),
      )
        .then(
          (results) =>
            batch.forEach((w, i) => {
              const result = results[i] as R | Error;
              if (result instanceof Error) w.reject(result);
              else w.resolve(result);
            }),
          (err) => {
            for (const w of batch) w.reject(err);
          },
        )
        .finally(() => {
          this.running -= 1;
          this.schedule();
        });
    }
  }
}
