// Deployment defaults (issue 38): docker-compose.yml requires every secret (no fallback value);
// MongoDB, Redis and Kafka ask for credentials in compose and in the Kubernetes dev overlay, and
// the app is given them; the base denies all traffic in and out of its pods but what is allowed
// by name (DNS, the servers, the gateway's public port, the services' callers, metrics from the
// monitoring namespace alone); a NetworkPolicy selects the dev overlay's servers. The local
// stand-ins (infra/local) keep none, by design: docs/decisions/021.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { cacheDir, repoRoot } from '../local/servers.mjs';

const kustomize = join(cacheDir, 'bin', 'kustomize');
type Obj = { kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: any };
function build(dir: string): Obj[] {
  if (!existsSync(kustomize)) throw new Error(`${kustomize} is missing: run npm run provision`);
  const out = execFileSync(kustomize, ['build', join(repoRoot, 'infra/k8s', dir)], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJS() as Obj);
}

/** A setting whose value is a secret: credentials, keys, passwords, tokens. */
const SECRET_NAME = /SECRET|PASSWORD|PASS\b|TOKEN|_KEY\b|ACCESS_KEY|CREDENTIAL/i;

describe('docker-compose.yml', () => {
  const text = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
  const compose = parse(text, { merge: true }) as {
    services: Record<string, { environment?: Record<string, unknown>; command?: string[] }>;
  };
  /** Every `${NAME...}` interpolation: its variable, its operator and what follows. */
  const interpolations = [...text.matchAll(/\$\{(\w+)(:?[-?+])?([^}]*)\}/g)].map((m) => ({
    name: m[1] as string,
    op: m[2] ?? '',
    rest: m[3] ?? '',
  }));

  it('requires every secret: ${VAR:?message}, never a default to fall back on', () => {
    const secrets = interpolations.filter((i) => SECRET_NAME.test(i.name));
    expect(new Set(secrets.map((s) => s.name))).toEqual(
      new Set([
        'INTERNAL_SECRET',
        'EVENT_SECRET_KEY',
        'MONGO_PASSWORD',
        'REDIS_PASSWORD',
        'KAFKA_PASSWORD',
        'S3_ACCESS_KEY',
        'S3_SECRET_KEY',
      ]),
    );
    for (const s of secrets) {
      expect(s.op, `\${${s.name}} must be \${${s.name}:?message}`).toBe(':?');
      expect(s.rest.trim(), `\${${s.name}:?} says what to set`).not.toBe('');
    }
    // No secret written out in a service's settings either: each is an interpolation.
    for (const [name, service] of Object.entries(compose.services))
      for (const [key, value] of Object.entries(service.environment ?? {}))
        if (SECRET_NAME.test(key) && !/^REDISCLI_AUTH$/.test(key))
          expect(String(value), `${name}: ${key}`).toMatch(/^\$\{\w+:\?[^}]+\}$/);
  });

  it('runs MongoDB, Redis and Kafka with authentication, and gives the services the credentials', () => {
    const { mongo, redis, kafka, minio } = compose.services;
    expect(mongo?.environment?.MONGO_INITDB_ROOT_USERNAME).toBeTruthy();
    expect(String(mongo?.environment?.MONGO_INITDB_ROOT_PASSWORD)).toMatch(/^\$\{MONGO_PASSWORD:\?/);
    const redisArgs = redis?.command ?? [];
    expect(redisArgs[redisArgs.indexOf('--requirepass') + 1]).toMatch(/^\$\{REDIS_PASSWORD:\?/);
    // Every listener clients reach speaks SASL; only the broker's own controller one is plain.
    const protocols = Object.fromEntries(
      String(kafka?.environment?.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP)
        .split(',')
        .map((p) => p.split(':')),
    );
    const advertised = String(kafka?.environment?.KAFKA_ADVERTISED_LISTENERS).split(',');
    for (const listener of advertised) expect(protocols[listener.split(':')[0] as string], listener).toMatch(/^SASL_/);
    expect(String(kafka?.environment?.KAFKA_LISTENER_NAME_CLIENTS_PLAIN_SASL_JAAS_CONFIG)).toContain(
      'user_homereport="${KAFKA_PASSWORD:?',
    );
    expect(String(minio?.environment?.MINIO_ROOT_PASSWORD)).toMatch(/^\$\{S3_SECRET_KEY:\?/);
    for (const name of ['auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications', 'gateway']) {
      const env = compose.services[name]?.environment ?? {};
      expect(String(env.MONGO_URL), name).toMatch(/^mongodb:\/\/homereport:\$\{MONGO_PASSWORD:\?[^}]+\}@mongo:27017\//);
      expect(String(env.REDIS_URL), name).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379$/);
      expect(env.KAFKA_SASL_MECHANISM, name).toBe('plain');
      expect(env.KAFKA_USERNAME, name).toBe('homereport');
      expect(String(env.KAFKA_PASSWORD), name).toMatch(/^\$\{KAFKA_PASSWORD:\?/);
    }
  });
});

describe('the Kubernetes dev overlay', () => {
  const objects = build('overlays/dev');
  const servers = objects.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'dev-server');
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'homereport-servers') as Obj & {
    stringData?: Record<string, string>;
  };
  const settings: Record<string, string> = Object.fromEntries(
    Object.entries(secret?.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), 'base64').toString('utf8')]),
  );
  const container = (name: string) =>
    objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === name)?.spec.template.spec.containers[0];
  /** An env var's value: literal, or the homereport-servers key it is read from. */
  const envValue = (c: any, name: string): string | undefined => {
    const e = (c?.env ?? []).find((x: { name: string }) => x.name === name);
    if (!e) return undefined;
    if (e.value !== undefined) return String(e.value);
    const ref = e.valueFrom?.secretKeyRef;
    expect(ref?.name, name).toBe('homereport-servers');
    return settings[ref.key];
  };

  it('runs MongoDB, Redis and Kafka asking for the credentials the app is given', () => {
    // MongoDB: a root user (the image then starts mongod with --auth), the same in MONGO_URL.
    const mongo = container('mongo');
    const user = envValue(mongo, 'MONGO_INITDB_ROOT_USERNAME');
    const password = envValue(mongo, 'MONGO_INITDB_ROOT_PASSWORD');
    expect(user).toBeTruthy();
    expect(password).toBeTruthy();
    expect(new URL(settings.MONGO_URL as string).username).toBe(user);
    expect(new URL(settings.MONGO_URL as string).password).toBe(password);
    // Redis: --requirepass, the password REDIS_URL carries.
    const redis = container('redis');
    const pass = redis.args[redis.args.indexOf('--requirepass') + 1] as string;
    const expanded = pass.replace(/^\$\((\w+)\)$/, (_m: string, v: string) => envValue(redis, v) ?? '');
    expect(expanded).toBeTruthy();
    expect(new URL(settings.REDIS_URL as string).password).toBe(expanded);
    // Kafka: every advertised listener speaks SASL, its one user the app's.
    const kafka = container('kafka');
    const protocols = Object.fromEntries(
      (envValue(kafka, 'KAFKA_LISTENER_SECURITY_PROTOCOL_MAP') ?? '').split(',').map((p) => p.split(':')),
    );
    for (const listener of (envValue(kafka, 'KAFKA_ADVERTISED_LISTENERS') ?? '').split(','))
      expect(protocols[listener.split(':')[0] as string], listener).toMatch(/^SASL_/);
    const jaas = (envValue(kafka, 'KAFKA_LISTENER_NAME_CLIENTS_PLAIN_SASL_JAAS_CONFIG') ?? '').replace(
      /\$\((\w+)\)/g,
      (_m, v) => envValue(kafka, v) ?? '',
    );
    expect(settings.KAFKA_SASL_MECHANISM).toBe('plain');
    expect(jaas).toContain(`user_${settings.KAFKA_USERNAME}="${settings.KAFKA_PASSWORD}"`);
    // MinIO already had its root user (S3_ACCESS_KEY / S3_SECRET_KEY).
    expect(envValue(container('minio'), 'MINIO_ROOT_PASSWORD')).toBe(settings.S3_SECRET_KEY);
  });

  it("has a NetworkPolicy selecting each server's pods, admitting this namespace's pods only", () => {
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    expect(servers.map((s) => s.metadata.name).sort()).toEqual(['kafka', 'maildev', 'minio', 'mongo', 'redis']);
    for (const s of servers) {
      const labels = s.spec.template.metadata.labels as Record<string, string>;
      const selecting = policies.filter(
        (p) =>
          (p.spec.policyTypes ?? []).includes('Ingress') &&
          Object.entries(p.spec.podSelector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
          Object.keys(p.spec.podSelector.matchLabels ?? {}).length > 0,
      );
      expect(selecting.length, s.metadata.name).toBeGreaterThan(0);
      for (const p of selecting)
        for (const rule of p.spec.ingress ?? []) {
          expect(rule.from, `${p.metadata.name}: from whom`).toBeDefined();
          for (const peer of rule.from) expect(peer.namespaceSelector, p.metadata.name).toBeUndefined();
        }
    }
  });
});

describe('network policies of the base', () => {
  const objects = build('base');
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const podsOf = (app: string) => ({ 'app.kubernetes.io/name': app, 'app.kubernetes.io/component': 'server' });
  const selects = (selector: any, labels: Record<string, string>) =>
    Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
    (selector?.matchExpressions ?? []).every(
      (e: { key: string; operator: string; values: string[] }) =>
        e.operator === 'In' && e.values.includes(labels[e.key] as string),
    );
  const rulesFor = (labels: Record<string, string>, type: 'ingress' | 'egress') =>
    policies
      .filter(
        (p) =>
          selects(p.spec.podSelector, labels) && p.spec.policyTypes.includes(type === 'ingress' ? 'Ingress' : 'Egress'),
      )
      .flatMap((p) => (p.spec[type] ?? []).map((rule: any) => ({ policy: p.metadata.name, rule })));

  it('denies every pod all traffic in and out unless allowed', () => {
    const deny = policies.filter(
      (p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress && !p.spec.egress,
    );
    expect(deny.map((p) => p.spec.policyTypes.sort())).toEqual([['Egress', 'Ingress']]);
  });

  it('lets every pod ask DNS, and reach the servers on their ports only', () => {
    const every = rulesFor({}, 'egress');
    const dns = every.filter(({ rule }) => rule.ports?.some((p: { port: number }) => p.port === 53));
    expect(dns.flatMap(({ rule }) => rule.ports.map((p: any) => `${p.protocol}/${p.port}`)).sort()).toEqual([
      'TCP/53',
      'UDP/53',
    ]);
    const allowsPort = (port: number) =>
      every.some(({ rule }) =>
        (rule.ports ?? []).some((p: any) => p.port === port || (p.port <= port && port <= (p.endPort ?? p.port))),
      );
    for (const [server, port] of Object.entries({ mongo: 27017, kafka: 9092, redis: 6379, s3: 443, smtp: 587 }))
      expect(allowsPort(port), server).toBe(true);
    // Never everything: each egress rule of every pod names its ports.
    for (const { policy, rule } of every) expect(rule.ports?.length, policy).toBeGreaterThan(0);
    // Nor traffic to the Kubernetes API or other ports of this cluster: nothing else is open.
    expect(allowsPort(6443)).toBe(false);
    expect(allowsPort(22)).toBe(false);
  });

  it("admits the gateway's public port from anywhere, each service's from its callers only", () => {
    const httpFrom = (app: string) =>
      rulesFor(podsOf(app), 'ingress')
        .filter(({ rule }) => (rule.ports ?? []).some((p: any) => p.port === 'http'))
        .flatMap(({ rule }) =>
          rule.from
            ? rule.from.map(
                (peer: any) =>
                  ['gateway', 'auth', 'files'].filter((c) => selects(peer.podSelector, podsOf(c))).join(',') || '?',
              )
            : ['*'],
        );
    expect(httpFrom('gateway')).toEqual(['*']);
    expect(httpFrom('zipcodes')).toEqual(['gateway']);
    expect(httpFrom('requests')).toEqual(['gateway,auth,files']);
    // ... and the callers may send it: egress to the services' HTTP port.
    for (const caller of ['gateway', 'auth', 'files'])
      expect(
        rulesFor(podsOf(caller), 'egress').some(({ rule }) => rule.ports?.some((p: any) => p.port === 'http')),
        caller,
      ).toBe(true);
  });

  it('admits the metrics port from the monitoring namespace only, and no rule opens every port', () => {
    for (const app of ['gateway', 'auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications']) {
      const ingress = rulesFor(podsOf(app), 'ingress');
      // A rule without ports would open the metrics port (and every other) to its peers.
      for (const { policy, rule } of ingress) expect(rule.ports?.length, `${app}: ${policy}`).toBeGreaterThan(0);
      const metrics = ingress.filter(({ rule }) =>
        rule.ports.some((p: any) => p.port === 'metrics' || p.port === 9464),
      );
      expect(metrics.length, app).toBeGreaterThan(0);
      for (const { policy, rule } of metrics) {
        expect(rule.from, `${policy}: metrics from whom`).toHaveLength(1);
        expect(rule.from[0], policy).toEqual({
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
        });
      }
    }
  });
});
