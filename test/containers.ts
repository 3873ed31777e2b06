// Servers in containers for machines with a Docker engine (testcontainers 11). Not exercised
// on machines without Docker, where the local servers run instead.
import { spawnSync } from 'node:child_process';

export async function dockerAnswers(): Promise<boolean> {
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000, encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim().length > 0;
}

export async function startContainers(): Promise<{ settings: Record<string, string>; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const kafkaHostPort = 39092;
  const [mongo, redis, kafka, minio, maildev] = await Promise.all([
    new GenericContainer('mongo:7').withExposedPorts(27017).start(),
    new GenericContainer('redis:7').withExposedPorts(6379).start(),
    new GenericContainer('apache/kafka:3.9.1')
      .withExposedPorts({ container: 9092, host: kafkaHostPort })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaHostPort}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer('minio/minio:latest')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: 'homereport-dev', MINIO_ROOT_PASSWORD: 'homereport-dev-secret' })
      .withExposedPorts(9000)
      .start(),
    new GenericContainer('maildev/maildev:2.2.1').withExposedPorts(1025, 1080).start(),
  ]);
  const host = (c: { getHost(): string }) => c.getHost();
  return {
    settings: {
      MONGO_URL: `mongodb://${host(mongo)}:${mongo.getMappedPort(27017)}/`,
      REDIS_URL: `redis://${host(redis)}:${redis.getMappedPort(6379)}`,
      KAFKA_BROKERS: `127.0.0.1:${kafkaHostPort}`,
      S3_ENDPOINT: `http://${host(minio)}:${minio.getMappedPort(9000)}`,
      S3_ACCESS_KEY: 'homereport-dev',
      S3_SECRET_KEY: 'homereport-dev-secret',
      SMTP_URL: `smtp://${host(maildev)}:${maildev.getMappedPort(1025)}`,
      MAILDEV_URL: `http://${host(maildev)}:${maildev.getMappedPort(1080)}`,
    },
    stop: async () => {
      await Promise.all([mongo, redis, kafka, minio, maildev].map((c) => c.stop()));
    },
  };
}
