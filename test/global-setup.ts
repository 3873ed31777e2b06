// One global setup for the integration and browser tests: servers from explicit URLs when
// given, else containers when a Docker engine answers, else the local servers (infra/local).
// Then the whole stack (services + gateway) on test ports, so tests go through real HTTP.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { infraPorts, provision, repoRoot, startInfra, stopByPidFile } from '../infra/local/servers.mjs';
import { stackPorts, startStack } from '../infra/local/stack.mjs';
import { dockerAnswers, startContainers } from './containers.js';
import { checkLogs, tokensSent } from './log-check.js';
import { TEST_ACCOUNT_REQUESTS_PER_HOUR, TEST_ANON_REQUESTS_PER_HOUR } from './support/allowances.js';
import type { TestEnv } from './support/env.js';
import { metaTestSettings } from './support/meta.js';

const EXPLICIT = ['MONGO_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'S3_ENDPOINT', 'SMTP_URL'] as const;

export default async function setup(project: TestProject) {
  const log = (m: string) => console.log(m);
  const dataDir = mkdtempSync(join(tmpdir(), 'homereport-test-'));
  const allExplicit = EXPLICIT.every((k) => process.env[k]);
  let stopInfra: () => Promise<void>;
  let settings: Record<string, string>;
  let mode: TestEnv['mode'];

  if (!allExplicit && !EXPLICIT.some((k) => process.env[k]) && (await dockerAnswers())) {
    mode = 'containers';
    log('[test] a Docker engine answers: starting servers with testcontainers');
    const c = await startContainers();
    settings = c.settings;
    stopInfra = c.stop;
  } else {
    mode = allExplicit ? 'explicit' : 'local';
    provision({ withBrowser: true });
    const infra = await startInfra({ profile: 'test', dataDir, log });
    settings = infra.settings;
    stopInfra = async () => {
      await infra.stop();
      // A test may have restarted a server itself (the Kafka outage test does).
      for (const name of ['kafka', 'mongo', 'redis', 'versitygw', 'maildev']) await stopByPidFile(dataDir, name);
    };
  }

  if (!existsSync(join(repoRoot, 'web/dist/index.html'))) {
    log('[test] building the web app');
    const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: 'inherit' });
    if (r.status !== 0) {
      await stopInfra();
      throw new Error('web build failed');
    }
  }

  const internalSecret = randomBytes(24).toString('hex');
  const eventSecretKey = randomBytes(32).toString('hex');
  const logDir = join(dataDir, 'logs');
  const gatewayPort = stackPorts('test').gateway;
  const meta = metaTestSettings();
  const stack = await startStack({
    profile: 'test',
    logDir,
    pretty: false,
    log,
    settings: {
      ...settings,
      INTERNAL_SECRET: internalSecret,
      EVENT_SECRET_KEY: eventSecretKey,
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // Tests sign in and fail on purpose many times from one address.
      RATE_LIMIT_PER_MINUTE: '100000',
      // Tests send many anonymous requests from one address; the allowance test starts near it.
      ANON_REQUESTS_PER_HOUR: String(TEST_ANON_REQUESTS_PER_HOUR),
      // And many signed in with one account; the account ceiling's test starts near it.
      ACCOUNT_REQUESTS_PER_HOUR: String(TEST_ACCOUNT_REQUESTS_PER_HOUR),
      ...meta.settings,
    },
  }).catch(async (err) => {
    await stopInfra();
    throw err;
  });
  log(`[test] stack up at ${stack.url}; service logs in ${logDir}`);

  const env: TestEnv = {
    mode,
    gatewayUrl: stack.url,
    maildevUrl: settings.MAILDEV_URL ?? '',
    smtpUrl: settings.SMTP_URL ?? '',
    mongoUrl: settings.MONGO_URL ?? '',
    redisUrl: settings.REDIS_URL ?? '',
    kafkaBrokers: settings.KAFKA_BROKERS ?? '',
    s3: {
      endpoint: settings.S3_ENDPOINT ?? '',
      accessKey: settings.S3_ACCESS_KEY ?? '',
      secretKey: settings.S3_SECRET_KEY ?? '',
    },
    internalSecret,
    eventSecretKey,
    dataDir,
    logDir,
    infraPorts: infraPorts('test'),
    servicePorts: stack.ports.services,
    metricsPorts: stack.ports.metrics,
    meta: meta.env,
  };
  project.provide('testEnv', env);

  return async () => {
    // The tokens first, while maildev runs; the logs once every service has stopped and flushed.
    const tokens = await tokensSent(env.maildevUrl).catch(() => []);
    await stack.stop();
    await stopInfra();
    const problems = checkLogs(logDir, dataDir, tokens);
    if (problems.length > 0) {
      // Kept so the lines can be read in full.
      throw new Error(
        `The services' logs of this run hold what they must not (logs kept in ${logDir}):\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''}`,
      );
    }
    if (!process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
}
