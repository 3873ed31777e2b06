import type { Admin, Kafka } from 'kafkajs';
import {
  consumerLag,
  deadLetters,
  eventConsumeDuration,
  eventRetries,
  eventsConsumed,
  metricsEnabled,
  onScrape,
} from './registry.js';

/**
 * Counts one fetched group of messages of a topic once it is finished (handled, skipped as a
 * duplicate, or dead-lettered) and observes how long it took. `abandoned` is not finished: the
 * messages come again, and are counted then.
 */
export function countConsumed(topic: string, outcome: string, messages: number, startedAtMs: number): void {
  if (outcome === 'abandoned') return;
  eventsConsumed.inc({ topic, outcome: outcome.replace('-', '_') }, messages);
  eventConsumeDuration.observe({ topic }, (performance.now() - startedAtMs) / 1000);
}

/**
 * Puts the retry and dead-letter counters of each subscribed topic at 0 when a consumer starts.
 * A counter series that first appears at 1 has no earlier sample, so `increase()` over it is 0
 * and the alert on dead letters (infra/k8s/monitoring) would miss the first one of each process.
 * The counters carry no group label: each service runs one consumer group, named after it.
 */
export function zeroConsumerCounters(topics: string[]): void {
  if (!metricsEnabled()) return;
  for (const topic of topics) {
    eventRetries.inc({ topic }, 0);
    deadLetters.inc({ topic }, 0);
  }
}

/** The lag watcher of each consumer group in this process (a restarted consumer replaces its own). */
const watchers = new Map<string, () => Promise<void>>();

/**
 * The group's lag per partition (end offset minus committed offset), asked of Kafka when
 * Prometheus scrapes, through an admin client of its own. The scrape's deadline bounds the
 * asking (metrics/registry.ts); a broker that does not answer leaves the last values. The
 * returned function ends it: the consumer's owner calls it when it disconnects the consumer (not
 * when kafkajs restarts it after a crash, which emits STOP and DISCONNECT too). A watcher started
 * again for the same group replaces the one before.
 */
export function watchConsumerLag(kafka: Kafka, groupId: string, topics: string[]): () => Promise<void> {
  if (!metricsEnabled()) return async () => {};
  void watchers.get(groupId)?.();
  let admin: Admin | null = null;
  const connected = async () => {
    if (admin) return admin;
    const fresh = kafka.admin();
    await fresh.connect();
    admin = fresh;
    return fresh;
  };
  const stopScrape = onScrape(async () => {
    try {
      const client = await connected();
      const [committed, ends] = await Promise.all([
        client.fetchOffsets({ groupId, topics }),
        Promise.all(topics.map(async (topic) => ({ topic, partitions: await client.fetchTopicOffsets(topic) }))),
      ]);
      for (const { topic, partitions } of ends) {
        const done = committed.find((c) => c.topic === topic)?.partitions ?? [];
        for (const p of partitions) {
          const at = Number(done.find((d) => d.partition === p.partition)?.offset ?? -1);
          // -1: nothing committed yet; the group starts from the beginning (fromBeginning).
          const from = at >= 0 ? at : Number(p.low);
          consumerLag.set(
            { group: groupId, topic, partition: String(p.partition) },
            Math.max(0, Number(p.high) - from),
          );
        }
      }
    } catch (err) {
      // Reconnect at the next scrape: the broker may have gone away and come back.
      const broken = admin;
      admin = null;
      await broken?.disconnect().catch(() => undefined);
      throw err;
    }
  });
  const stop = async () => {
    stopScrape();
    if (watchers.get(groupId) === stop) watchers.delete(groupId);
    const open = admin;
    admin = null;
    await open?.disconnect().catch(() => undefined);
  };
  watchers.set(groupId, stop);
  return stop;
}
