import { inject } from 'vitest';
import type { MetaTestEnv } from './meta.js';

/** Where the servers and the stack of this test run are; provided by test/global-setup.ts. */
export interface TestEnv {
  mode: 'local' | 'containers' | 'explicit';
  gatewayUrl: string;
  maildevUrl: string;
  smtpUrl: string;
  mongoUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  s3: { endpoint: string; accessKey: string; secretKey: string };
  internalSecret: string;
  /** Seals the tokens in auth's events (EVENT_SECRET_KEY); tests open them with the kit's openSecret. */
  eventSecretKey: string;
  dataDir: string;
  logDir: string;
  infraPorts: Record<string, number>;
  servicePorts: Record<string, number>;
  /** Each process's Prometheus port (`GET /metrics`), by process name (gateway and services). */
  metricsPorts: Record<string, number>;
  /** The leads service's Meta Lead Ads settings, and where its Graph API stand-in must listen. */
  meta: MetaTestEnv;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testEnv: TestEnv;
  }
}

export const testEnv = (): TestEnv => inject('testEnv');
