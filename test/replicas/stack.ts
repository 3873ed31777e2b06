import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Role, SessionStore } from '@homereport/kit';
import { Redis } from 'ioredis';
import { startInfra, stopByPidFile } from '../../infra/local/servers.mjs';
import { type StackPorts, type StackProcess, startStack } from '../../infra/local/stack.mjs';
import { TEST_ACCOUNT_REQUESTS_PER_HOUR, TEST_ANON_REQUESTS_PER_HOUR } from '../support/allowances.js';
import { type ApiOptions, type ApiResponse, api, freshClientAddress, uniqueEmail } from '../support/api.js';
import { testEnv } from '../support/env.js';
import { serversPresent } from '../support/servers.js';

/** The two-replica stack's per-client budget (RATE_LIMIT_PER_MINUTE), small enough to reach. */
export const BUDGET = 60;

export interface ReplicaStack {
  /** Gateway A (to instance 1 of every service) and gateway B (to instance 2). */
  gateways: [string, string];
  settings: Record<string, string>;
  eventSecretKey: string;
  processes: StackProcess[];
  ports: StackPorts;
  redis: Redis;
  /** Each process's log file, `<name>.log`. */
  logDir: string;
  stop(): Promise<void>;
}

/**
 * Offset of the replica stack's ports (REPLICA_TEST_PORT_OFFSET, else the run's + 100): clear of
 * the run's own ports, and never above 3500, so its ports stay below Linux's ephemeral range.
 */
export function replicaOffset(runOffset = Number(process.env.TEST_PORT_OFFSET ?? 0)): number {
  if (process.env.REPLICA_TEST_PORT_OFFSET) return Number(process.env.REPLICA_TEST_PORT_OFFSET);
  return shiftedOffset(100, runOffset);
}

/** The run's offset moved by `shift`, down instead when up would pass 3500. */
export const shiftedOffset = (shift: number, runOffset = Number(process.env.TEST_PORT_OFFSET ?? 0)): number =>
  runOffset + shift <= 3500 ? runOffset + shift : runOffset - shift;

const EXPLICIT = ['MONGO_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'S3_ENDPOINT', 'SMTP_URL'];

/**
 * True when this run can start a second set of local servers: the replica stack must not share
 * Kafka with the run's own stack, whose consumers would take its events (and send its emails).
 */
export function replicaStackPossible(): boolean {
  const explicit = EXPLICIT.filter((k) => process.env[k]);
  return serversPresent(
    testEnv().mode === 'local' && explicit.length === 0,
    `the replica suite starts local servers of its own (mode ${testEnv().mode}${explicit.length ? `, ${explicit.join(', ')} set` : ''})`,
  );
}

/**
 * The stack in its two-replica mode (LOCAL_REPLICAS=2) on servers of its own: two instances of
 * every service and two gateways on one MongoDB, Kafka, Redis, S3 and SMTP.
 */
export const startReplicaStack = (): Promise<ReplicaStack> =>
  startSeparateStack({ name: 'replicas', offset: replicaOffset(), replicas: 2 });

export interface SeparateStackOptions {
  /** Its log prefix and the name of its data folder. */
  name: string;
  /** Its ports' offset, clear of the run's (see replicaOffset). */
  offset: number;
  replicas?: number;
  /** The processes beside the gateways (default every service). */
  services?: string[];
  /** Settings of every process, over the suite's defaults. */
  settings?: Record<string, string>;
}

/**
 * The settings of a stack on servers of its own: the servers' addresses (`infraSettings`, from
 * startInfra), fresh secrets and the suite's defaults.
 */
export const separateStackSettings = (infraSettings: Record<string, string>): Record<string, string> => ({
  ...infraSettings,
  INTERNAL_SECRET: randomBytes(24).toString('hex'),
  EVENT_SECRET_KEY: randomBytes(32).toString('hex'),
  PUBLIC_URL: 'http://127.0.0.1:8080',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  RATE_LIMIT_PER_MINUTE: String(BUDGET),
  // Two sets of servers and up to twenty-one Node processes share two cores in such a suite:
  // the production deadline of a MongoDB call (1.5 s) turned a slow moment into a 503.
  MONGO_TIMEOUT_MS: '5000',
  ANON_REQUESTS_PER_HOUR: String(TEST_ANON_REQUESTS_PER_HOUR),
  ACCOUNT_REQUESTS_PER_HOUR: String(TEST_ACCOUNT_REQUESTS_PER_HOUR),
});

/**
 * A stack on servers of its own (their ports and the stack's at `offset`), for a suite that must
 * not share the run's Kafka (whose consumers would take its events) or that runs the stack with
 * settings of its own. The replica suite's defaults apply to every such stack.
 */
export async function startSeparateStack(options: SeparateStackOptions): Promise<ReplicaStack> {
  const log = (m: string) => console.log(`[${options.name}] ${m}`);
  const { offset } = options;
  const dataDir = mkdtempSync(join(tmpdir(), `homereport-${options.name}-`));
  const infra = await startInfra({ profile: 'test', dataDir, log, offset });
  const stopInfra = async () => {
    await infra.stop();
    for (const name of ['kafka', 'mongo', 'redis', 'versitygw', 'maildev']) await stopByPidFile(dataDir, name);
  };
  const settings = separateStackSettings(infra.settings);
  const eventSecretKey = settings.EVENT_SECRET_KEY ?? '';
  const logDir = join(dataDir, 'logs');
  try {
    const stack = await startStack({
      profile: 'test',
      offset,
      replicas: options.replicas ?? 1,
      ...(options.services ? { services: options.services } : {}),
      logDir,
      pretty: false,
      log,
      settings: { ...settings, ...options.settings },
    });
    const redis = new Redis(infra.settings.REDIS_URL ?? '');
    log(`up: gateways ${stack.urls.join(', ')}; logs in ${logDir}`);
    return {
      gateways: [stack.urls[0] ?? '', stack.urls[1] ?? ''],
      settings: infra.settings,
      eventSecretKey,
      processes: stack.processes,
      ports: stack.ports,
      redis,
      logDir,
      stop: async () => {
        await redis.quit();
        await stack.stop();
        await stopInfra();
        if (!process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stopInfra();
    throw err;
  }
}

export interface TestUser {
  userId: string;
  email: string;
  token: string;
}

/** A session made as auth makes them, in the replica stack's Redis. */
export async function session(stack: ReplicaStack, role: Role = 'user'): Promise<TestUser> {
  const userId = `t-${randomBytes(8).toString('hex')}`;
  const email = uniqueEmail(role);
  const token = await new SessionStore(stack.redis).create({ userId, email, role });
  return { userId, email, token };
}

/** A call through one gateway, from a client address of its own unless `from` says otherwise. */
export const through = <T = any>(gateway: string, method: string, path: string, options: ApiOptions = {}) =>
  api<T>(method, `${gateway}${path}`, { from: freshClientAddress(), ...options }) as Promise<ApiResponse<T>>;

/** A small but real PDF (the files service checks the content). */
const reportPdf = (id: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% report of ${id}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );

const expectStatus = (res: ApiResponse, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
};

export const uniqueAddress = () =>
  `${Math.floor(Math.random() * 9000) + 100} ${randomBytes(4).toString('hex')} Street, Austin, TX`;

/** A request submitted and its report uploaded through `gateway`, not yet covered. */
export async function uploadedRequest(gateway: string, admin: TestUser): Promise<string> {
  const created = await through(gateway, 'POST', '/api/requests', { body: { address: uniqueAddress() } });
  expectStatus(created, 201, 'submit');
  const id = created.body.request.id as string;
  const form = new FormData();
  form.append('report', new Blob([reportPdf(id)], { type: 'application/pdf' }), 'report.pdf');
  expectStatus(
    await through(gateway, 'POST', `/api/admin/requests/${id}/upload`, { token: admin.token, raw: form }),
    200,
    'upload',
  );
  return id;
}

/** Moves a request to covered through `gateway`. */
export async function cover(gateway: string, admin: TestUser, id: string): Promise<void> {
  const res = await through(gateway, 'PUT', `/api/admin/requests/${id}/status`, {
    token: admin.token,
    body: { status: 'covered' },
  });
  expectStatus(res, 200, 'cover');
}

export async function coveredRequest(gateway: string, admin: TestUser): Promise<string> {
  const id = await uploadedRequest(gateway, admin);
  await cover(gateway, admin, id);
  return id;
}

/** `count` covered requests, made alternately through each gateway, four at a time (setup, not the race). */
export async function coveredRequests(gateways: string[], admin: TestUser, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 4) {
    const batch = Array.from({ length: Math.min(4, count - i) }, (_, j) =>
      coveredRequest(gateways[(i + j) % gateways.length] ?? '', admin),
    );
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}
