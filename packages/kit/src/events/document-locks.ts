/**
 * Runs writes to one document one at a time within this process.
 *
 * Why: FerretDB v1 on SQLite applies an update as read, change, write-back of the whole
 * document with nothing stopping a second update in between (FerretDB issue #3040). Two
 * concurrent updates of one document lose one of them: measured here, 200 concurrent `$inc`
 * left 17, and two `updateOne({ used: false }, { $set: { used: true } })` both reported a
 * change. The outbox relay's `$pullAll` racing a handler's `$set` + `$push` can therefore undo
 * the state change or drop the new event. Queuing every write per document id (handlers and
 * the relay alike) makes them atomic again within one process; real MongoDB needs none of it. Writes from
 * another process (a second replica, the create-admin command) are not covered.
 */
export class DocumentLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(id: string, write: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(id) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(id, tail);
    await previous;
    try {
      return await write();
    } finally {
      release();
      if (this.tails.get(id) === tail) this.tails.delete(id);
    }
  }
}
