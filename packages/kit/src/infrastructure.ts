import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Client as S3Client } from 'minio';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import type { ServiceApp } from './app.js';
import { splitList } from './config.js';
import { type DependencyBreaker, guardMongo } from './connections/breaker.js';
import { type KafkaSecuritySettings, type TopicLayout, kafkaSecurity } from './connections/kafka-options.js';
import { createKafka, ensureTopics, kafkaReadiness } from './connections/kafka.js';
import {
  type MongoConnection,
  connectMongo,
  connectMongoDriver,
  databaseOf,
  ensureCollections,
  mongoConnection,
} from './connections/mongo.js';
import { connectRedis, redisConnection } from './connections/redis.js';
import { createS3Client, ensureBucket, s3Readiness } from './connections/s3.js';
import { unavailableDependency } from './dependency-errors.js';
import { namedError } from './errors.js';
import {
  type EventConsumer,
  type EventHandler,
  type ProcessedEvent,
  type ProcessedLedger,
  deadLetterTopic,
  startConsumer,
} from './events/consumer.js';
import { OUTBOX_MARKERS, OutboxRelay, type OutboxRelayOptions } from './events/outbox.js';
import { EventPublisher } from './events/publisher.js';
import type { Logger } from './logger.js';
import { reaching } from './startup.js';

/** What a service asks for; only these connections are opened and checked for readiness. */
export interface Needs {
  mongoDb?: string;
  /**
   * The service defines mongoose models: its connection is mongoose's (`infra.mongoose`). Without
   * it the MongoDB driver alone opens the database and mongoose is never loaded (bench:memory).
   */
  mongoose?: boolean;
  redis?: boolean;
  /** Topics the service publishes to or consumes from; created if missing. */
  kafkaTopics?: string[];
  s3?: boolean;
}

/** The subset of settings the connections read (see config.ts for their defaults). */
export interface ConnectionSettings {
  MONGO_URL?: string;
  MONGO_TIMEOUT_MS?: number;
  REDIS_URL?: string;
  REDIS_TIMEOUT_MS?: number;
  KAFKA_BROKERS?: string;
  KAFKA_SSL?: boolean;
  KAFKA_SASL_MECHANISM?: KafkaSecuritySettings['KAFKA_SASL_MECHANISM'];
  KAFKA_USERNAME?: string;
  KAFKA_PASSWORD?: string;
  KAFKA_PARTITIONS?: number;
  KAFKA_REPLICATION_FACTOR?: number;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY?: string;
  S3_SECRET_KEY?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_TIMEOUT_MS?: number;
}

/**
 * A service's connections. Mongo, Redis and S3 must answer at start (fail fast); Kafka may be
 * away: topics are ensured in the background and the outbox holds events until it returns.
 */
export class Infrastructure {
  private _mongo?: MongoConnection;
  private _mongoose?: Connection;
  private _redis?: Redis;
  private _kafka?: Kafka;
  private _publisher?: EventPublisher;
  private _s3?: S3Client;
  private mongoBreaker?: DependencyBreaker;
  private readonly workers: { stop(): Promise<void> }[] = [];
  private topicsReady: Promise<void> = Promise.resolve();

  private constructor(
    readonly name: string,
    private readonly settings: ConnectionSettings,
    readonly logger: Logger,
  ) {}

  static async open(name: string, settings: ConnectionSettings, needs: Needs, logger: Logger): Promise<Infrastructure> {
    const infra = new Infrastructure(name, settings, logger);
    if (needs.mongoDb) {
      const url = required(settings.MONGO_URL, 'MONGO_URL');
      const options = { timeoutMs: settings.MONGO_TIMEOUT_MS };
      const dbName = needs.mongoDb;
      // A failure names MongoDB and MONGO_URL (startup.ts): the line an operator reads in a crash loop.
      infra._mongo = await reaching('MongoDB', 'MONGO_URL', url, async () => {
        if (needs.mongoose) infra._mongoose = await connectMongo(url, dbName, options);
        const conn = infra._mongoose ?? (await connectMongoDriver(url, dbName, options));
        await ensureCollections(conn, [OUTBOX_MARKERS, 'processed_events']);
        return conn;
      });
      infra.mongoBreaker = guardMongo(infra._mongo, logger);
    }
    if (needs.redis) {
      const url = required(settings.REDIS_URL, 'REDIS_URL');
      infra._redis = await reaching('Redis', 'REDIS_URL', url, () =>
        connectRedis(url, { commandTimeoutMs: settings.REDIS_TIMEOUT_MS, logger }),
      );
    }
    if (needs.s3) {
      infra._s3 = createS3Client({
        endpoint: required(settings.S3_ENDPOINT, 'S3_ENDPOINT'),
        accessKey: required(settings.S3_ACCESS_KEY, 'S3_ACCESS_KEY'),
        secretKey: required(settings.S3_SECRET_KEY, 'S3_SECRET_KEY'),
        bucket: required(settings.S3_BUCKET, 'S3_BUCKET'),
        region: settings.S3_REGION ?? 'us-east-1',
        timeoutMs: settings.S3_TIMEOUT_MS,
      });
      const s3 = infra._s3;
      await reaching('S3', 'S3_ENDPOINT', required(settings.S3_ENDPOINT, 'S3_ENDPOINT'), () =>
        ensureBucket(s3, required(settings.S3_BUCKET, 'S3_BUCKET'), settings.S3_REGION ?? 'us-east-1'),
      );
    }
    if (needs.kafkaTopics) {
      infra._kafka = createKafka(
        splitList(required(settings.KAFKA_BROKERS, 'KAFKA_BROKERS')),
        name,
        logger,
        kafkaSecurity(settings),
      );
      infra._publisher = new EventPublisher(infra._kafka, logger.child({ component: 'publisher' }));
      const { numPartitions, replicationFactor } = infra.topicLayout;
      infra.topicsReady = infra.retryUntilDone('ensure topics', () =>
        ensureTopics(infra.kafka, needs.kafkaTopics ?? [], numPartitions, replicationFactor),
      );
    }
    return infra;
  }

  private get topicLayout(): TopicLayout {
    return {
      numPartitions: this.settings.KAFKA_PARTITIONS ?? 3,
      replicationFactor: this.settings.KAFKA_REPLICATION_FACTOR ?? 1,
    };
  }

  get mongo(): MongoConnection {
    return required(this._mongo, 'mongo connection (add mongoDb to the service needs)');
  }
  /** The service's database (MONGO_DB) on that connection. */
  get db(): Db {
    return databaseOf(this.mongo);
  }
  /** The mongoose connection, for the service's models. */
  get mongoose(): Connection {
    return required(this._mongoose, 'mongoose connection (add mongoDb and mongoose to the service needs)');
  }
  get redis(): Redis {
    return required(this._redis, 'redis connection (add redis to the service needs)');
  }
  get kafka(): Kafka {
    return required(this._kafka, 'kafka client (add kafkaTopics to the service needs)');
  }
  get publisher(): EventPublisher {
    return required(this._publisher, 'event publisher (add kafkaTopics to the service needs)');
  }
  get s3(): S3Client {
    return required(this._s3, 's3 client (add s3 to the service needs)');
  }
  get bucket(): string {
    return required(this.settings.S3_BUCKET, 'S3_BUCKET');
  }

  /**
   * Readiness checks for every opened connection, and closing them when the app closes. Awaited,
   * so the app's onClose hooks added after it run before its own (last added, first run).
   */
  async attach(app: ServiceApp): Promise<void> {
    // MONGO_TIMEOUT_MS bounds one operation outside requests, and all of a request's together.
    if (this._mongo)
      await app.register(mongoConnection, { conn: this._mongo, requestBudgetMs: this.settings.MONGO_TIMEOUT_MS });
    // A MongoDB operation that timed out after its server was selected shows only in its error.
    const mongoBreaker = this.mongoBreaker;
    if (mongoBreaker) {
      app.addHook('onError', async (_req, _reply, error) => {
        if (unavailableDependency(error) === 'mongo') mongoBreaker.failure();
      });
    }
    if (this._redis) await app.register(redisConnection, { redis: this._redis });
    if (this._s3) await app.register(s3Readiness, { client: this._s3, bucket: this.bucket });
    if (this._kafka) {
      await app.register(kafkaReadiness, {
        brokers: splitList(required(this.settings.KAFKA_BROKERS, 'KAFKA_BROKERS')),
      });
    }
    // onClose hooks run in reverse registration order, so workers stop before connections close.
    app.addHook('onClose', async () => {
      for (const worker of this.workers.reverse()) await worker.stop();
      await this._publisher?.close();
    });
  }

  /** Publishes the events recorded in these collections' outbox arrays (see events/outbox.ts). */
  startOutboxRelay(collectionNames: string[], options?: OutboxRelayOptions): OutboxRelay {
    const relay = new OutboxRelay(
      this.db,
      collectionNames,
      this.publisher,
      this.logger.child({ component: 'outbox-relay' }),
      options,
    );
    relay.start();
    this.workers.push(relay);
    return relay;
  }

  /**
   * Consumes events with at-most-once effects per event id; keeps trying to join while Kafka is
   * away. `claimsGroup`: see ConsumerOptions (consumers that split a service's topics between them).
   */
  startConsumer(groupId: string, handlers: Record<string, EventHandler>, options: { claimsGroup?: string } = {}): void {
    const claimsGroup = options.claimsGroup ?? groupId;
    let consumer: EventConsumer | undefined;
    let stopped = false;
    const db = this.db;
    const processed = db.collection<ProcessedEvent>('processed_events');
    // Hour buckets of processed ids, read and deleted by _id when they grow old (no TTL indexes here).
    const ledger = db.collection<ProcessedLedger>('processed_events_ledger');
    const logger = this.logger.child({ component: 'consumer', groupId });
    // Crashes in a row, each within a minute of the start before it, and the pending restart.
    let crashes = 0;
    let startedAt = 0;
    let restart: NodeJS.Timeout | undefined;
    // kafkajs restarts a consumer after a retriable error only; after any other (seen after a
    // broker restart, or a record it cannot decode) it leaves the group and stays stopped, saying
    // so at its own error level, which our sink keeps at debug. Start it again, as after a start
    // that failed; sooner each time unless it keeps crashing: a record that crashes every fetch
    // would otherwise restart the consumer in a tight loop until an operator removes it.
    const onCrash = (error: Error) => {
      if (stopped) return;
      crashes = Date.now() - startedAt < 60_000 ? crashes + 1 : 1;
      const delayMs = Math.min(500 * 2 ** (crashes - 1), 30_000);
      logger.warn(
        { err: error, crashes, delayMs },
        `consumer stopped by kafkajs; starting it again in ${delayMs} ms: ${namedError(error)}`,
      );
      clearTimeout(restart);
      // retryUntilDone keeps trying (and warns while it fails); it never rejects.
      restart = setTimeout(() => void start(), delayMs);
    };
    const start = (): Promise<void> =>
      this.retryUntilDone(`consumer ${groupId}`, async () => {
        if (stopped) return;
        // Inside the retry: on a broker that just started, topic creation can fail once.
        await ensureTopics(this.kafka, [deadLetterTopic(claimsGroup)], 1, this.topicLayout.replicationFactor);
        startedAt = Date.now();
        consumer = await startConsumer({
          kafka: this.kafka,
          groupId,
          claimsGroup,
          handlers,
          processed,
          ledger,
          publisher: this.publisher,
          logger,
          onCrash,
        });
      });
    const started = this.topicsReady
      .then(start)
      .catch((err) => this.logger.error({ err }, `consumer ${groupId} could not start: ${namedError(err)}`));
    this.workers.push({
      stop: async () => {
        stopped = true;
        clearTimeout(restart);
        await Promise.race([started, new Promise((r) => setTimeout(r, 2000))]);
        await consumer?.disconnect();
      },
    });
  }

  private async retryUntilDone(what: string, fn: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await fn();
        if (attempt > 1) this.logger.info(`${what}: succeeded after ${attempt} attempts`);
        return;
      } catch (err) {
        // A broker that is still starting fails the first tries: quiet until it goes on for a while.
        if (attempt === 5 || attempt % 20 === 0) this.logger.warn({ err, attempt }, `${what}: failed; retrying`);
        else this.logger.debug({ err, attempt }, `${what}: failed; retrying`);
        await new Promise((r) => setTimeout(r, Math.min(500 * attempt, 5000)));
      }
    }
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}
