import { createRequire } from 'node:module';

interface RequestQueueInternals {
  pending: unknown[];
  scheduleCheckPendingRequests(this: RequestQueueInternals): void;
}

const { prototype } = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as {
  prototype: RequestQueueInternals;
};

/**
 * kafkajs 2.2.4 re-arms a timer for every broker connection after every check of its queue, even
 * with nothing queued (tulios/kafkajs#1556, #1704): each idle connection wakes its process about
 * once a millisecond. Measured here, that was 3 to 4% of a core for each idle service and 13% for
 * notifications, on a two-core machine that also carries the broker and the database. With
 * nothing pending there is nothing to check later: a request that must wait is queued by `push`,
 * which schedules its own check, and every answer checks the queue again.
 */
export function stopIdleQueueChecks(): void {
  const original = prototype.scheduleCheckPendingRequests;
  if ((original as { idleAware?: boolean }).idleAware) return;
  const idleAware = function (this: RequestQueueInternals) {
    if (this.pending.length > 0) original.call(this);
  };
  prototype.scheduleCheckPendingRequests = Object.assign(idleAware, { idleAware: true });
}
