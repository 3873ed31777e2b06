/**
 * How a consumer keeps its place in its group, and so how soon a restarted process consumes again.
 *
 * A process killed without leaving (SIGKILL, OOM, a lost node) stays a member until the broker
 * has heard no heartbeat from it for `sessionTimeout`; its replacement's join waits for that, and
 * so do the events of its partitions. Measured on the local broker, a member restarted 3 s after
 * the kill joined 7 s after its start at 10 s, and 3 s after at 6 s. 6 s is the least a broker
 * accepts by default (group.min.session.timeout.ms).
 *
 * Shorter is safe only while a live member heartbeats well within it, also on a loaded machine:
 * kafkajs heartbeats from its fetch loop, after each fetch, and an idle fetch waits up to
 * `maxWaitTimeInMs` for data (kafkajs' default, 5 s, would leave 1 s of slack), so fetches wait
 * at most 2 s; while a batch is handled (a slow handler, retries, waiting for another consumer's
 * claim) the consumer heartbeats every `heartbeatInterval` on its own (consumer.ts). That leaves
 * a live member 4 s of event-loop stall before the broker takes it for dead, and even then no
 * event is lost or handled twice: the claims in `processed` guard the redelivery.
 * `rebalanceTimeout` bounds how long a live member may take to rejoin when the group changes.
 */
export const GROUP_TIMING = {
  sessionTimeout: 6000,
  heartbeatInterval: 1000,
  rebalanceTimeout: 10_000,
  maxWaitTimeInMs: 2000,
} as const;

/** The longest a live member goes without a heartbeat while idle: a fetch's wait, then the heartbeat interval. */
export const longestIdleSilenceMs = (
  timing: { maxWaitTimeInMs: number; heartbeatInterval: number } = GROUP_TIMING,
): number => timing.maxWaitTimeInMs + timing.heartbeatInterval;
