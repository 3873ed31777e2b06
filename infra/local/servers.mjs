// Starts the real servers the project needs as local processes (no Docker): mongo-java-server, Kafka,
// Redis, Versity S3 Gateway and maildev. Used by `npm start` (dev profile) and by the test
// global setup (test profile, other ports and a throwaway data dir, so both can run at once).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROXIED, Toxiproxy, toxiproxyPorts } from './toxiproxy.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheDir = process.env.LOCAL_INFRA_CACHE ?? join(homedir(), '.cache', 'homereport');
export const KAFKA_VERSION = '3.9.1';

const env = process.env;
const num = (name, fallback) => Number(env[name] ?? fallback);

/**
 * Ports per profile; every one can be moved with an environment variable. `offset` (test profile
 * only) replaces TEST_PORT_OFFSET: a suite that runs servers of its own beside the run's.
 */
export function infraPorts(profile, offset = Number(env.TEST_PORT_OFFSET ?? 0)) {
  const test = profile === 'test';
  // TEST_PORT_OFFSET lets two test runs (two worktrees, two engineers) share a machine. Test ports
  // stay below 32768, where Linux hands out ephemeral client ports, so no outgoing connection can
  // hold a port a server is about to bind.
  const t = (port) => port + offset;
  return {
    mongo: num('LOCAL_MONGO_PORT', test ? t(27117) : 27017),
    kafka: num('LOCAL_KAFKA_PORT', test ? t(29192) : 9092),
    kafkaController: num('LOCAL_KAFKA_CONTROLLER_PORT', test ? t(29193) : 9093),
    redis: num('LOCAL_REDIS_PORT', test ? t(26479) : 6379),
    s3: num('LOCAL_S3_PORT', test ? t(29100) : 9000),
    smtp: num('LOCAL_SMTP_PORT', test ? t(21025) : 1025),
    maildevWeb: num('LOCAL_MAILDEV_WEB_PORT', test ? t(21080) : 1080),
  };
}

export const S3_DEV_CREDENTIALS = { accessKey: 'homereport-dev', secretKey: 'homereport-dev-secret' };

/** The connection settings the services read, for servers started here. */
export function infraUrls(ports) {
  return {
    MONGO_URL: `mongodb://127.0.0.1:${ports.mongo}/`,
    KAFKA_BROKERS: `127.0.0.1:${ports.kafka}`,
    REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    S3_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
    S3_ACCESS_KEY: S3_DEV_CREDENTIALS.accessKey,
    S3_SECRET_KEY: S3_DEV_CREDENTIALS.secretKey,
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    MAILDEV_URL: `http://127.0.0.1:${ports.maildevWeb}`,
  };
}

/** Stops a server started by another process (a test that restarted Kafka) through its pid file. */
export async function stopByPidFile(dataDir, name, timeoutMs = 15_000) {
  const file = join(dataDir, `${name}.pid`);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8'));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
}

/**
 * Runs provision.sh (idempotent; seconds when everything is there). `testTools` false leaves out
 * what only tests and benchmarks use (Toxiproxy, promtool, kustomize, the image's Node).
 */
export function provision({ withBrowser = false, testTools = true } = {}) {
  const result = spawnSync('bash', [join(repoRoot, 'infra/local/provision.sh')], {
    stdio: 'inherit',
    env: {
      ...env,
      LOCAL_INFRA_CACHE: cacheDir,
      WITH_BROWSER: withBrowser ? '1' : '0',
      WITH_TEST_TOOLS: testTools ? '1' : '0',
    },
  });
  if (result.status !== 0) throw new Error('provisioning failed (see the messages above)');
}

export function waitForPort(port, { timeoutMs = 60_000, name = `port ${port}`, proc } = {}) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolvePromise, reject) => {
    const attempt = () => {
      if (proc && proc.exitCode !== null) {
        reject(new Error(`${name} exited with code ${proc.exitCode} before it was ready`));
        return;
      }
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolvePromise();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${name} did not open port ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 250);
      });
    };
    attempt();
  });
}

export function portInUse(port) {
  return new Promise((res) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      res(true);
    });
    socket.once('error', () => res(false));
  });
}

/**
 * One server process: spawned detached in its own process group (so stopping it stops its
 * children), output to a log file in its data dir, pid written beside it so a test can stop
 * and restart it (the Kafka outage test does).
 */
export class LocalServer {
  constructor(name, { command, args, env: extraEnv = {}, port, dataDir, ready }) {
    Object.assign(this, { name, command, args, extraEnv, port, dataDir, ready });
    this.proc = null;
  }

  get logFile() {
    return join(this.dataDir, `${this.name}.log`);
  }

  async start() {
    mkdirSync(this.dataDir, { recursive: true });
    if (await portInUse(this.port)) {
      throw new Error(
        `${this.name}: port ${this.port} is already in use. Stop whatever holds it, or choose other ports (see README, "Configuration").`,
      );
    }
    const out = openSync(this.logFile, 'a');
    this.proc = spawn(this.command, this.args, {
      cwd: this.dataDir,
      env: { ...env, ...this.extraEnv },
      stdio: ['ignore', out, out],
      detached: true,
    });
    writeFileSync(join(this.dataDir, `${this.name}.pid`), String(this.proc.pid));
    try {
      await waitForPort(this.port, { name: this.name, proc: this.proc, timeoutMs: 90_000 });
      if (this.ready) await this.ready();
    } catch (err) {
      await this.stop();
      const tail = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(`${err.message}\n--- last lines of ${this.logFile} ---\n${tail}`);
    }
    return this;
  }

  async stop(timeoutMs = 15_000) {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}

function bin(name) {
  const path = join(cacheDir, 'bin', name);
  if (!existsSync(path)) throw new Error(`${name} is not installed in ${cacheDir}/bin; run: npm run provision`);
  return path;
}

export const MONGO_JAVA_SERVER_VERSION = '1.47.0';

/**
 * mongo-java-server with its H2 MVStore backend: the MongoDB wire protocol, atomic
 * single-document updates, data in one file. A bounded heap keeps it a good neighbour.
 */
export function mongo(ports, dataDir) {
  const dir = join(dataDir, 'mongo');
  mkdirSync(dir, { recursive: true });
  const home = join(cacheDir, `mongo-java-server-${MONGO_JAVA_SERVER_VERSION}`);
  if (!existsSync(join(home, '.complete')))
    throw new Error(`mongo-java-server missing in ${home}; run: npm run provision`);
  return new LocalServer('mongo', {
    command: 'java',
    args: [
      '-Xms64m',
      `-Xmx${env.LOCAL_MONGO_HEAP ?? '512m'}`,
      '-XX:+UseSerialGC',
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
      '-cp',
      `${home}/libs/*:${home}/classes`,
      'MongoLauncher',
      join(dir, 'mongo.mv'),
      '127.0.0.1',
      String(ports.mongo),
    ],
    port: ports.mongo,
    dataDir,
  });
}

export function redis(ports, dataDir, { persist }) {
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  return new LocalServer('redis', {
    command: 'redis-server',
    args: [
      '--port',
      String(ports.redis),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      ...(persist ? ['--appendonly', 'yes'] : ['--save', '', '--appendonly', 'no']),
    ],
    port: ports.redis,
    dataDir,
  });
}

export function s3(ports, dataDir) {
  const data = join(dataDir, 's3', 'data');
  const meta = join(dataDir, 's3', 'meta');
  mkdirSync(data, { recursive: true });
  mkdirSync(meta, { recursive: true });
  return new LocalServer('versitygw', {
    command: bin('versitygw'),
    args: ['--port', `127.0.0.1:${ports.s3}`, 'posix', '--sidecar', meta, data],
    env: { ROOT_ACCESS_KEY: S3_DEV_CREDENTIALS.accessKey, ROOT_SECRET_KEY: S3_DEV_CREDENTIALS.secretKey },
    port: ports.s3,
    dataDir,
  });
}

export function maildev(ports, dataDir) {
  const dir = join(dataDir, 'maildev');
  mkdirSync(dir, { recursive: true });
  return new LocalServer('maildev', {
    command: process.execPath,
    args: [
      join(repoRoot, 'node_modules/maildev/bin/maildev'),
      '--smtp',
      String(ports.smtp),
      '--web',
      String(ports.maildevWeb),
      '--ip',
      '127.0.0.1',
      '--web-ip',
      '127.0.0.1',
      '--mail-directory',
      dir,
      '--silent',
    ],
    port: ports.maildevWeb,
    dataDir,
    ready: () => waitForPort(ports.smtp, { name: 'maildev smtp' }),
  });
}

/**
 * `advertisedPort`: the port clients are told to use after their first metadata call. Behind
 * toxiproxy it is the proxy's, or every connection after the first would go around the proxy.
 */
export function kafka(ports, dataDir, { advertisedPort = ports.kafka } = {}) {
  const dir = join(dataDir, 'kafka');
  const logs = join(dir, 'data');
  mkdirSync(logs, { recursive: true });
  const libs = join(cacheDir, `kafka-${KAFKA_VERSION}`, 'libs');
  if (!existsSync(libs)) throw new Error(`Kafka jars missing in ${libs}; run: npm run provision`);
  const props = join(dir, 'server.properties');
  writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${ports.kafkaController}`,
      `listeners=PLAINTEXT://127.0.0.1:${ports.kafka},CONTROLLER://127.0.0.1:${ports.kafkaController}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${advertisedPort}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      'inter.broker.listener.name=PLAINTEXT',
      `log.dirs=${logs}`,
      'num.partitions=3',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=3',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=true',
      'log.retention.hours=168',
      '',
    ].join('\n'),
  );
  const log4j = join(dir, 'log4j.properties');
  writeFileSync(
    log4j,
    'log4j.rootLogger=WARN, stdout\nlog4j.appender.stdout=org.apache.log4j.ConsoleAppender\nlog4j.appender.stdout.layout=org.apache.log4j.PatternLayout\nlog4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n\n',
  );
  const java = ['-Xms256m', '-Xmx768m', '-XX:+UseG1GC', `-Dlog4j.configuration=file:${log4j}`, '-cp', `${libs}/*`];
  if (!existsSync(join(logs, 'meta.properties'))) {
    // A 16-byte id in base64url, as Kafka's own random-uuid makes it, and like Kafka never one that
    // starts with '-': the tool would read it as an option (1 start in 64 failed that way).
    let clusterId;
    do clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-'));
    const fmt = spawnSync('java', [...java, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', props], {
      encoding: 'utf8',
    });
    if (fmt.status !== 0) throw new Error(`Kafka storage format failed:\n${fmt.stdout}\n${fmt.stderr}`);
  }
  return new LocalServer('kafka', {
    command: 'java',
    args: [...java, 'kafka.Kafka', props],
    port: ports.kafka,
    dataDir,
    ready: () => kafkaAnswers(`127.0.0.1:${advertisedPort}`),
  });
}

/** An open port is not enough for Kafka: wait until it answers a metadata request. */
async function kafkaAnswers(broker) {
  const { Kafka, logLevel } = await import('kafkajs');
  const admin = new Kafka({ clientId: 'infra-check', brokers: [broker], logLevel: logLevel.NOTHING }).admin();
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await admin.connect();
      await admin.describeCluster();
      await admin.disconnect();
      return;
    } catch (err) {
      await admin.disconnect().catch(() => {});
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export function toxiproxyServer(ports, dataDir) {
  return new LocalServer('toxiproxy', {
    command: bin('toxiproxy-server'),
    args: ['-host', '127.0.0.1', '-port', String(ports.api)],
    port: ports.api,
    dataDir,
  });
}

/**
 * Starts every server not already given by an explicit URL (MONGO_URL, KAFKA_BROKERS,
 * REDIS_URL, S3_ENDPOINT, SMTP_URL win). Returns the settings for the services and a stop().
 * With `toxiproxy` (the fault benchmark sets it; LOCAL_TOXIPROXY=1 does the same) toxiproxy
 * starts first, with a proxy in front of each server started here, and the settings point the
 * services at the proxies; the result's `toxiproxy` is a client of its API. `offset`: test
 * ports at that offset rather than TEST_PORT_OFFSET's (the proxies' ports do not follow it).
 */
export async function startInfra({
  profile,
  dataDir,
  log = console.log,
  toxiproxy = env.LOCAL_TOXIPROXY === '1',
  offset,
}) {
  const ports = infraPorts(profile, offset);
  const proxyPorts = toxiproxy ? toxiproxyPorts(profile) : null;
  const urls = infraUrls(
    proxyPorts ? { ...ports, ...Object.fromEntries(PROXIED.map((k) => [k, proxyPorts[k]])) } : ports,
  );
  const explicit = {
    mongo: env.MONGO_URL,
    kafka: env.KAFKA_BROKERS,
    redis: env.REDIS_URL,
    s3: env.S3_ENDPOINT,
    smtp: env.SMTP_URL,
  };
  const wanted = [
    ['mongo', () => mongo(ports, dataDir)],
    ['redis', () => redis(ports, dataDir, { persist: profile !== 'test' })],
    ['s3', () => s3(ports, dataDir)],
    ['smtp', () => maildev(ports, dataDir)],
    ['kafka', () => kafka(ports, dataDir, proxyPorts ? { advertisedPort: proxyPorts.kafka } : {})],
  ].filter(([key]) => !explicit[key]);

  const started = [];
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
  };
  let proxy = null;
  try {
    if (proxyPorts) {
      // Before the servers: Kafka's readiness check already goes through its proxy.
      const server = toxiproxyServer(proxyPorts, dataDir);
      started.push(server);
      await server.start();
      proxy = new Toxiproxy(proxyPorts.api);
      for (const [key] of wanted) await proxy.createProxy(key, proxyPorts[key], ports[key]);
      log(`[infra] toxiproxy on 127.0.0.1:${proxyPorts.api}, proxies for ${wanted.map(([k]) => k).join(', ')}`);
    }
    await Promise.all(
      wanted.map(async ([, make]) => {
        const t0 = Date.now();
        const server = make();
        started.push(server);
        await server.start();
        log(`[infra] ${server.name} ready on 127.0.0.1:${server.port} (${Date.now() - t0} ms, log ${server.logFile})`);
      }),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const settings = {
    ...urls,
    ...(explicit.mongo ? { MONGO_URL: explicit.mongo } : {}),
    ...(explicit.kafka ? { KAFKA_BROKERS: explicit.kafka } : {}),
    ...(explicit.redis ? { REDIS_URL: explicit.redis } : {}),
    ...(explicit.s3
      ? { S3_ENDPOINT: explicit.s3, S3_ACCESS_KEY: env.S3_ACCESS_KEY, S3_SECRET_KEY: env.S3_SECRET_KEY }
      : {}),
    ...(explicit.smtp ? { SMTP_URL: explicit.smtp, MAILDEV_URL: env.MAILDEV_URL } : {}),
  };
  return { settings, servers: Object.fromEntries(started.map((s) => [s.name, s])), stop, toxiproxy: proxy };
}
