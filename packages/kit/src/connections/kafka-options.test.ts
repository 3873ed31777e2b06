import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, KafkaConfig, loadConfig } from '../config.js';
import { kafkaSecurity } from './kafka-options.js';

const settings = (env: Record<string, string>) => loadConfig(Type.Object(KafkaConfig), env);

describe('Kafka settings of a managed cluster', () => {
  it('connects a local broker in the clear, with topics of one copy', () => {
    const local = settings({});
    expect(kafkaSecurity(local)).toEqual({});
    expect(local).toMatchObject({ KAFKA_PARTITIONS: 3, KAFKA_REPLICATION_FACTOR: 1 });
  });

  it('gives kafkajs TLS and SCRAM credentials from the environment', () => {
    const cluster = settings({
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_USERNAME: 'homereport',
      KAFKA_PASSWORD: 's3cret',
      KAFKA_REPLICATION_FACTOR: '3',
    });
    expect(kafkaSecurity(cluster)).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'homereport', password: 's3cret' },
    });
    expect(cluster.KAFKA_REPLICATION_FACTOR).toBe(3);
  });

  it('refuses to start with a mechanism and no credentials, or credentials and no mechanism', () => {
    expect(() => kafkaSecurity(settings({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_USERNAME: 'u' }))).toThrow(
      /KAFKA_PASSWORD: must be set with KAFKA_SASL_MECHANISM=plain/,
    );
    expect(() => kafkaSecurity(settings({ KAFKA_PASSWORD: 'p' }))).toThrow(ConfigError);
  });

  it('names a mechanism kafkajs does not speak, without echoing it', () => {
    expect(() => settings({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM: .*not shown/);
  });
});
