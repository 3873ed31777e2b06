import type { Agent, AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Client } from 'minio';
import type { ServicePlugin } from '../app.js';
import { requireLazily } from '../lazy-require.js';
import { instrumentS3 } from '../metrics/dependencies.js';

export type { Client as S3Client } from 'minio';

export interface S3Settings {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** How long S3 may leave a call without a byte (connect, reply, or mid-transfer); none when absent. */
  timeoutMs?: number;
}

/**
 * A socket that carries nothing for `timeoutMs` is destroyed with ETIMEDOUT, which fails the S3
 * call it serves: the minio client sets no deadline of its own, so a hung S3 would otherwise hold
 * an upload or a download forever. Idle, not total: a 200 MB transfer that keeps moving is fine.
 */
/**
 * node:http through getBuiltinModule, not an ES import: on Node 24 an ES import of node:http
 * reads every export, and its lazy WebSocket, CloseEvent and MessageEvent load undici (Node's
 * fetch) into every process that imports the kit, about 12 MB resident (bench:memory). Every ES
 * import of node:http in a server process has the same cost (src/node-http-import.test.ts).
 */
const { Agent: HttpAgent } = process.getBuiltinModule('node:http');

function withIdleDeadline<A extends Agent>(agent: A, timeoutMs: number): A {
  const create = agent.createConnection.bind(agent) as (...args: unknown[]) => Duplex;
  agent.createConnection = ((...args: unknown[]) => {
    const socket = create(...args) as Duplex & { setTimeout(ms: number): void };
    socket.setTimeout(timeoutMs);
    socket.on('timeout', () => {
      socket.destroy(Object.assign(new Error(`S3 sent nothing for ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    });
    return socket;
  }) as A['createConnection'];
  return agent;
}

/**
 * The minio package, loaded on first use: every process imports the kit, but only files talks to
 * S3, and loading the client costs each process about 30 MB of RSS (bench:memory).
 */
const loadMinio = () => requireLazily('minio') as typeof import('minio');

export function createS3Client(settings: S3Settings): Client {
  const url = new URL(settings.endpoint);
  const https = url.protocol === 'https:';
  // The agent's own `timeout` too: Node resets a kept-alive socket's timeout to it when the socket
  // is freed, so a reused socket keeps the deadline.
  const agentOptions: AgentOptions = { keepAlive: true, timeout: settings.timeoutMs };
  const agent =
    settings.timeoutMs === undefined
      ? undefined
      : withIdleDeadline(https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions), settings.timeoutMs);
  const { Client } = loadMinio();
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port || (https ? 443 : 80)),
    useSSL: https,
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region,
    pathStyle: true,
    ...(agent ? { transportAgent: agent } : {}),
  });
  instrumentS3(client);
  return client;
}

export async function ensureBucket(client: Client, bucket: string, region: string): Promise<void> {
  if (!(await client.bucketExists(bucket))) {
    await client.makeBucket(bucket, region).catch(async (err: { code?: string }) => {
      // Another replica may have created it between our check and our call.
      if (err.code !== 'BucketAlreadyOwnedByYou' && err.code !== 'BucketAlreadyExists') throw err;
    });
  }
}

export const s3Readiness: ServicePlugin<{ client: Client; bucket: string }> = async (app, { client, bucket }) => {
  app.readiness.add('s3', async () => {
    if (!(await client.bucketExists(bucket))) throw new Error(`bucket ${bucket} missing`);
  });
};
