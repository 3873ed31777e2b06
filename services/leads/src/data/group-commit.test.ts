import { currentMongoDeadline, withMongoDeadline } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

// The MongoDB deadline a batch is written under (kit mongo-deadline): the earliest of its
// requests', never that of whichever request's turn of the event loop started the batch.
describe('a group commit', () => {
  it('writes a batch under the earliest deadline of the requests in it', async () => {
    const seen: (number | undefined)[] = [];
    const commit = new GroupCommit<string, string>(
      async (items) => {
        seen.push(currentMongoDeadline()?.at);
        return items;
      },
      { maxBatch: 10, parallel: 1 },
    );
    const late = withMongoDeadline(60_000, () => commit.submit('late'));
    const early = withMongoDeadline(1_000, () => commit.submit('early'));
    const earliest = withMongoDeadline(1_000, () => currentMongoDeadline()?.at) ?? 0;
    await Promise.all([late, early]);
    expect(seen).toHaveLength(1);
    // The one-second deadline (made a moment before `earliest`), not the minute.
    expect(seen[0]).toBeLessThanOrEqual(earliest);
    expect(seen[0]).toBeGreaterThan(earliest - 30_000);
  });

  it("writes the items of no request under no deadline, even when a request's batch starts theirs", async () => {
    const seen: unknown[] = [];
    let release = () => {};
    const first = new Promise<void>((r) => {
      release = r;
    });
    const commit = new GroupCommit<string, string>(
      async (items) => {
        seen.push(currentMongoDeadline());
        if (items.includes('request')) await first;
        return items;
      },
      { maxBatch: 10, parallel: 1 },
    );
    // The request's batch is in flight; the consumer's item waits, and the request's batch,
    // once done, starts the next one.
    const request = withMongoDeadline(60_000, () => commit.submit('request'));
    await new Promise((r) => setImmediate(r));
    const background = commit.submit('from a consumer');
    release();
    await Promise.all([request, background]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeDefined();
    expect(seen[1]).toBeUndefined();
  });
});
