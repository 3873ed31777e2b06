import type { KafkaConfig as KafkaClientConfig } from 'kafkajs';
import { ConfigError } from '../config.js';

/** What a managed cluster asks of its clients, from the service's settings (config.ts, KafkaConfig). */
export interface KafkaSecuritySettings {
  KAFKA_SSL?: boolean;
  KAFKA_SASL_MECHANISM?: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  KAFKA_USERNAME?: string;
  KAFKA_PASSWORD?: string;
}

/** How the topics a service creates are laid out; an existing topic is left as it is. */
export interface TopicLayout {
  numPartitions: number;
  replicationFactor: number;
}

/**
 * kafkajs' `ssl` and `sasl` options. A mechanism without both credentials, or credentials without a
 * mechanism, stops the process at start with the settings named: a client that cannot
 * authenticate would otherwise retry for good while the outbox fills.
 */
export function kafkaSecurity(settings: KafkaSecuritySettings): Pick<KafkaClientConfig, 'ssl' | 'sasl'> {
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_USERNAME: username, KAFKA_PASSWORD: password } = settings;
  const problems: string[] = [];
  if (mechanism && !username) problems.push(`KAFKA_USERNAME: must be set with KAFKA_SASL_MECHANISM=${mechanism}`);
  if (mechanism && !password) problems.push(`KAFKA_PASSWORD: must be set with KAFKA_SASL_MECHANISM=${mechanism}`);
  if (!mechanism && (username || password))
    problems.push('KAFKA_SASL_MECHANISM: must be set when KAFKA_USERNAME or KAFKA_PASSWORD is');
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...(settings.KAFKA_SSL ? { ssl: true } : {}),
    ...(mechanism && username && password
      ? { sasl: { mechanism, username, password } as KafkaClientConfig['sasl'] }
      : {}),
  };
}
