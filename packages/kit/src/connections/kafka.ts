import type { Kafka, KafkaConfig, LogEntry } from 'kafkajs';
import type { ServicePlugin } from '../app.js';
import { requireLazily } from '../lazy-require.js';
import type { Logger } from '../logger.js';
import { tcpReachable } from '../readiness.js';

export type { Kafka } from 'kafkajs';

/**
 * kafkajs, loaded on first use: every process imports the kit, but the gateway, files and
 * zipcodes never talk to Kafka, and loading the client costs each of them RSS (bench:memory).
 */
export const loadKafkajs = () => requireLazily('kafkajs') as typeof import('kafkajs');

/**
 * The broker errors kafkajs retries by itself (a KafkaJSProtocolError whose `retriable` is true),
 * by `type`, with the message it logs for them (the Kafka protocol's own wording). kafkajs exports
 * no table of them (its own lives in a private module), and its log entries carry only the
 * message, so the sink matches on these.
 */
const RETRIABLE_BROKER_ERRORS: Record<string, string> = {
  CORRUPT_MESSAGE: 'This message has failed its CRC checksum, exceeds the valid size, or is otherwise corrupt',
  UNKNOWN_TOPIC_OR_PARTITION: 'This server does not host this topic-partition',
  LEADER_NOT_AVAILABLE: 'There is no leader for this topic-partition as we are in the middle of a leadership election',
  NOT_LEADER_FOR_PARTITION: 'This server is not the leader for that topic-partition',
  REQUEST_TIMED_OUT: 'The request timed out',
  REPLICA_NOT_AVAILABLE: 'The replica is not available for the requested topic-partition',
  NETWORK_EXCEPTION: 'The server disconnected before a response was received',
  GROUP_LOAD_IN_PROGRESS: "The coordinator is loading and hence can't process requests for this group",
  GROUP_COORDINATOR_NOT_AVAILABLE: 'The group coordinator is not available',
  NOT_COORDINATOR_FOR_GROUP: 'This is not the correct coordinator for this group',
  NOT_ENOUGH_REPLICAS: 'Messages are rejected since there are fewer in-sync replicas than required',
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 'Messages are written to the log, but to fewer in-sync replicas than required',
  NOT_CONTROLLER: 'This is not the correct controller for this cluster',
  CONCURRENT_TRANSACTIONS:
    'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing',
  KAFKA_STORAGE_ERROR: 'Disk error when trying to access log file on the disk',
  FETCH_SESSION_ID_NOT_FOUND: 'The fetch session ID was not found',
  INVALID_FETCH_SESSION_EPOCH: 'The fetch session epoch is invalid',
  LISTENER_NOT_FOUND:
    'There is no listener on the leader broker that matches the listener on which metadata request was processed',
  FENCED_LEADER_EPOCH: 'The leader epoch in the request is older than the epoch on the broker',
  UNKNOWN_LEADER_EPOCH: 'The leader epoch in the request is newer than the epoch on the broker',
  OFFSET_NOT_AVAILABLE:
    'The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing',
  PREFERRED_LEADER_NOT_AVAILABLE: 'The preferred leader was not available',
  ELIGIBLE_LEADERS_NOT_AVAILABLE: 'Eligible topic partition leaders are not available',
  ELECTION_NOT_NEEDED: 'Leader election not needed for topic partition',
  UNSTABLE_OFFSET_COMMIT: 'There are unstable offsets that need to be cleared',
};
const RETRIABLE_ERRORS = new Set(Object.values(RETRIABLE_BROKER_ERRORS));
const TRANSIENT_MESSAGES =
  /connection error|connection timeout|closed connection|ECONNREFUSED|ECONNRESET|rebalanc|coordinator|leader|restarting the consumer|failed to connect to seed broker|not the correct controller/i;

/**
 * Failures the caller handles itself: a topic another service created a moment earlier (kafkajs
 * treats "already exists" as success, after logging the broker's answer at error level).
 */
const HANDLED_BY_CALLER = new Set(['Topic creation errors']);

/** How long a retriable problem must go on before it is worth a warning. */
const PERSISTENT_AFTER_MS = 60_000;

/**
 * Sorts kafkajs' log entries by what an operator must do about them. Most of what kafkajs logs at
 * ERROR is retriable and retried by itself: a broker that is still starting, a group coordinator
 * not elected yet, a rebalance when a member joins. Those go to debug, and only when the same
 * problem is still there after a minute does it reach the log as one warning. Everything else
 * keeps its level.
 */
export function kafkaLogSink(log: Logger, now: () => number = Date.now) {
  const { logLevel } = loadKafkajs();
  const ongoing = new Map<string, { first: number; last: number; warned: boolean }>();
  return ({ namespace, level, log: entry }: LogEntry) => {
    const { message, ...rest } = entry;
    const error = typeof rest.error === 'string' ? rest.error : '';
    const transient =
      HANDLED_BY_CALLER.has(error) ||
      'retryCount' in rest ||
      'retryTime' in rest ||
      RETRIABLE_ERRORS.has(error) ||
      TRANSIENT_MESSAGES.test(message) ||
      TRANSIENT_MESSAGES.test(error);
    if (!transient) {
      if (level <= logLevel.ERROR) logKafkaError(log, namespace, entry);
      else if (level === logLevel.WARN) log.warn(rest, message);
      else log.debug(rest, message);
      return;
    }
    const key = `${namespace}|${error || message}`;
    const at = now();
    let problem = ongoing.get(key);
    if (!problem || at - problem.last > PERSISTENT_AFTER_MS) {
      problem = { first: at, last: at, warned: false };
      ongoing.set(key, problem);
    }
    problem.last = at;
    if (!problem.warned && at - problem.first >= PERSISTENT_AFTER_MS) {
      problem.warned = true;
      log.warn({ ...rest, sinceSeconds: Math.round((at - problem.first) / 1000) }, `${message} (still failing)`);
    } else {
      log.debug(rest, message);
    }
    if (ongoing.size > 200) {
      for (const [k, p] of ongoing) if (at - p.last > PERSISTENT_AFTER_MS) ongoing.delete(k);
    }
  };
}

/**
 * A kafkajs error entry as an ERROR line of ours: its error as `err` (kafkajs gives an Error, a
 * message string or only a stack), and its component and own text as the operation that failed.
 */
function logKafkaError(log: Logger, namespace: string, entry: LogEntry['log']): void {
  const { message: given, error, stack, timestamp: _timestamp, logger: _logger, ...fields } = entry;
  // kafkajs passes an Error as the message in places (its broker pool).
  const message = String(given);
  const err = kafkaErrorOf(error ?? ((given as unknown) instanceof Error ? given : undefined), stack, message);
  const operation = `kafkajs ${namespace}`;
  const text = message.includes(err.message) ? message : `${message}: ${err.type}: ${err.message}`;
  log.error({ ...fields, err, operation }, `${operation}: ${text}`);
}

/** The error of a kafkajs log entry, with a type and a message whatever form kafkajs gave it in. */
function kafkaErrorOf(
  error: unknown,
  stack: unknown,
  message: string,
): { type: string; message: string; stack?: string } {
  // The name and message an Error's stack opens with: "KafkaJSConnectionError: Connection timeout".
  const head = typeof stack === 'string' ? /^(\w+): (.*)/.exec(stack) : null;
  const withStack = typeof stack === 'string' ? { stack } : {};
  if (error instanceof Error)
    return { type: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  if (error && typeof error === 'object') {
    const e = error as { name?: unknown; message?: unknown };
    return {
      type: typeof e.name === 'string' ? e.name : (head?.[1] ?? 'KafkaJSError'),
      message: typeof e.message === 'string' ? e.message : (head?.[2] ?? message),
      ...withStack,
    };
  }
  if (typeof error === 'string' && error !== '')
    return { type: head?.[1] ?? 'KafkaJSError', message: error, ...withStack };
  return { type: head?.[1] ?? 'KafkaJSError', message: head?.[2] ?? message, ...withStack };
}

/** `security`: TLS and SASL of a managed cluster (kafka-options.ts), none for a local broker. */
export function createKafka(
  brokers: string[],
  clientId: string,
  logger: Logger,
  security: Pick<KafkaConfig, 'ssl' | 'sasl'> = {},
): Kafka {
  const { Kafka, logLevel } = loadKafkajs();
  const sink = kafkaLogSink(logger.child({ component: 'kafka' }));
  return new Kafka({
    clientId,
    brokers,
    ...security,
    connectionTimeout: 2000,
    requestTimeout: 10000,
    // Short retries: the outbox keeps events safe while Kafka is away, so waiting here gains nothing.
    retry: { retries: 3, initialRetryTime: 300, maxRetryTime: 3000 },
    logLevel: logLevel.WARN,
    logCreator: () => sink,
  });
}

/** Creates the topics a service publishes or consumes; an existing topic is left as it is. */
export async function ensureTopics(
  kafka: Kafka,
  topics: string[],
  numPartitions = 3,
  replicationFactor = 1,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t));
    // One topic per call: kafkajs sorts a reply's topics with localeCompare, whose first call
    // loads ICU's collation data, about 3 MB resident for the life of the process (bench:memory);
    // a reply with one topic is not sorted. A handful of calls, once per cluster.
    for (const topic of missing) {
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions, replicationFactor }] });
    }
  } finally {
    await admin.disconnect();
  }
}

export const kafkaReadiness: ServicePlugin<{ brokers: string[] }> = async (app, { brokers }) => {
  // A TCP probe answers in a second; a kafkajs admin call would sit in its retries while Kafka is away.
  // Degradable: the outbox keeps every event while Kafka is away, and writes go on.
  app.readiness.add('kafka', () => Promise.any(brokers.map((b) => tcpReachable(b))), { essential: false });
};
