// The Kubernetes manifests (infra/k8s): both overlays build with kustomize (installed by
// `npm run provision`), every object is valid against the Kubernetes schema (kubernetes-models),
// and every workload follows the rules of issue 23: probes, resources, a non-root security
// context; for the gateway and the services also two replicas at least, the health endpoints,
// a read-only root filesystem, a grace period that covers the graceful shutdown, a
// PodDisruptionBudget, and the network policy that lets only the gateway reach them; and those of
// issue 41: replicas spread over nodes and zones, every container's heap sized from its memory
// limit (MEMORY_LIMIT_MIB), the prod image pinned by commit and digest.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { heapFlags } from '../../packages/kit/bin/heap.mjs';
import { cacheDir, repoRoot } from '../local/servers.mjs';
import { MEMORY_LIMIT_MIB, NODE_FLAGS, PROCESS_ENV, SERVICES } from '../local/stack.mjs';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
type Container = any;

const kustomize = join(cacheDir, 'bin', 'kustomize');
const k8sDir = join(repoRoot, 'infra/k8s');
const SERVERS = ['gateway', ...SERVICES];
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);
/** packages/kit/src/server.ts forces the exit of a shutdown that takes longer than this. */
const SHUTDOWN_FORCE_S = 10;

function build(overlay: string): K8sObject[] {
  return buildDir(join('overlays', overlay));
}

function buildDir(dir: string): K8sObject[] {
  const out = execFileSync(kustomize, ['build', join(k8sDir, dir)], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJS() as K8sObject);
}

/** Every `image` string anywhere in an object (containers, init containers, Jobs, CronJobs). */
function imagesIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) imagesIn(v, found);
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (key === 'image' && typeof v === 'string') found.push(v);
      else imagesIn(v, found);
    }
  return found;
}

/** The tag of an image reference (`registry:5000/name:tag@sha256:...`), or undefined without one. */
function tagOf(image: string): string | undefined {
  const [name = ''] = image.split('@');
  const last = name.slice(name.lastIndexOf('/') + 1);
  return last.includes(':') ? last.slice(last.indexOf(':') + 1) : undefined;
}

/** The model class of an object's apiVersion and kind, e.g. kubernetes-models/apps/v1/Deployment. */
async function modelOf(obj: K8sObject) {
  const module = `kubernetes-models/${obj.apiVersion}/${obj.kind}`;
  const loaded = (await import(module)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = loaded[obj.kind];
  if (!Model) throw new Error(`no model for ${obj.apiVersion} ${obj.kind}`);
  return Model;
}

const podSpec = (w: K8sObject) => (w.kind === 'CronJob' ? w.spec.jobTemplate.spec.template.spec : w.spec.template.spec);
const byKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);
const named = (objs: K8sObject[], kind: string, name: string) =>
  objs.find((o) => o.kind === kind && o.metadata.name === name);
/**
 * The partitions of each topic the services create: a `*PARTITIONS*` setting of the ConfigMap
 * if there is one, else the kit's default (ensureTopics, packages/kit/src/connections).
 */
function topicPartitions(settings: Record<string, string> | undefined): number {
  const setting = Object.entries(settings ?? {}).find(([key]) => /PARTITIONS/.test(key));
  if (setting) return Number(setting[1]);
  const source = readFileSync(join(repoRoot, 'packages/kit/src/connections/kafka.ts'), 'utf8');
  const found = /ensureTopics\([^)]*\bnumPartitions\s*=\s*(\d+)/.exec(source)?.[1];
  if (!found) throw new Error('the default partition count is no longer ensureTopics(..., numPartitions = N)');
  return Number(found);
}

/** The HorizontalPodAutoscaler that scales a Deployment, if one does. */
const autoscalerOf = (objs: K8sObject[], d: K8sObject) =>
  byKind(objs, 'HorizontalPodAutoscaler').find(
    (h) => h.spec.scaleTargetRef.kind === d.kind && h.spec.scaleTargetRef.name === d.metadata.name,
  );
/** The fewest pods a Deployment runs: its autoscaler's minimum, else its own `replicas` (1 unset). */
const minReplicas = (objs: K8sObject[], d: K8sObject): number =>
  autoscalerOf(objs, d)?.spec.minReplicas ?? d.spec.replicas ?? 1;
const isServer = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'] === 'server';

const MEMORY_UNITS: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };
const bytes = (q: string) => {
  const m = /^(\d+)(Ki|Mi|Gi)$/.exec(q);
  if (!m) throw new Error(`unexpected memory quantity ${q}`);
  return Number(m[1]) * (MEMORY_UNITS[m[2] as string] as number);
};

/**
 * The highest resident memory (MB of 2^20 bytes, VmRSS / 1024 in bench/memory.mjs) each process
 * reached under load on Node 24, the image's, in the `npm run bench:memory` tables of docs/benchmarks.md.
 */
function measuredUnderLoad(): Record<string, number> {
  const peaks: Record<string, number> = {};
  const lines = readFileSync(join(repoRoot, 'docs/benchmarks.md'), 'utf8').split('\n');
  const cellsOf = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    const header = cellsOf(lines[i] as string);
    if (header[0] !== 'process') continue;
    const idle = header.findIndex((h) => /^Node 24\b.*\bidle\b/.test(h));
    if (idle < 0 || header[idle + 1] !== 'under load') continue;
    for (let j = i + 2; (lines[j] ?? '').startsWith('|'); j++) {
      const [name, ...cells] = cellsOf(lines[j] as string);
      if (!name || !SERVERS.includes(name)) continue;
      const figures = (cells[idle] ?? '').split('/').map((f) => Number(f.replace(/[^\d.]/g, '')));
      for (const mb of figures) if (mb > 0) peaks[name] = Math.max(peaks[name] ?? 0, mb);
    }
  }
  return peaks;
}

/** A CPU quantity in cores: "2", "1.5", "500m" (a number from YAML too). */
const cores = (q: string | number | undefined) => {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(String(q ?? ''));
  if (!m) throw new Error(`unexpected CPU quantity ${q}`);
  return Number(m[1]) / (m[2] ? 1000 : 1);
};

describe.each(['dev', 'prod'])('kustomize build of overlays/%s', (overlay) => {
  if (!existsSync(kustomize)) throw new Error(`${kustomize} is missing: run npm run provision`);
  const objects = build(overlay);
  const workloads = objects.filter((o) => WORKLOAD_KINDS.has(o.kind));
  const servers = workloads.filter(isServer);

  it('holds only objects valid against the Kubernetes schema', async () => {
    expect(objects.length).toBeGreaterThan(30);
    for (const obj of objects) {
      const Model = await modelOf(obj);
      expect(() => new Model(obj).validate(), `${obj.kind} ${obj.metadata.name}`).not.toThrow();
    }
  });

  it('runs every workload with probes, resources and a non-root security context', () => {
    for (const w of workloads) {
      const pod = podSpec(w);
      const what = `${w.kind} ${w.metadata.name}`;
      expect(pod.securityContext?.runAsNonRoot, what).toBe(true);
      expect(pod.securityContext?.runAsUser, what).toBeGreaterThan(0);
      expect(pod.securityContext?.seccompProfile?.type, what).toBe('RuntimeDefault');
      for (const c of pod.containers as Container[]) {
        expect(c.securityContext?.allowPrivilegeEscalation, what).toBe(false);
        expect(c.securityContext?.capabilities?.drop, what).toEqual(['ALL']);
        // Requests and limits of both CPU and memory, each limit at least its request.
        expect(cores(c.resources?.requests?.cpu), what).toBeGreaterThan(0);
        expect(cores(c.resources?.limits?.cpu), what).toBeGreaterThanOrEqual(cores(c.resources.requests.cpu));
        expect(bytes(c.resources?.requests?.memory), what).toBeGreaterThan(0);
        expect(bytes(c.resources?.limits?.memory), what).toBeGreaterThanOrEqual(bytes(c.resources.requests.memory));
        // A Node server's CPU limit is generous (a core at least): at the limit the CFS quota
        // throttles the process mid-request.
        if (isServer(w)) expect(cores(c.resources.limits.cpu), what).toBeGreaterThanOrEqual(1);
        // A Job runs once and ends: probes would only restart it mid-work.
        if (w.kind === 'Job' || w.kind === 'CronJob') continue;
        expect(c.livenessProbe, what).toBeTruthy();
        expect(c.readinessProbe, what).toBeTruthy();
      }
    }
  });

  it('runs the gateway and each service as the rules say', () => {
    expect(servers.map((s) => s.metadata.name).sort()).toEqual([...SERVERS].sort());
    for (const d of servers) {
      const pod = podSpec(d);
      const what = d.metadata.name;
      expect(d.kind, what).toBe('Deployment');
      const [c, ...others] = pod.containers as Container[];
      expect(others, what).toEqual([]);
      // No command: the image's CMD starts the process SERVICE names (the image test runs that
      // CMD), with the heap sized from the container's limit, passed in MEMORY_LIMIT_MIB.
      expect(c.command, what).toBeUndefined();
      expect(c.args, what).toBeUndefined();
      expect(c.env.find((e: { name: string }) => e.name === 'SERVICE')?.value, what).toBe(what);
      const entry = what === 'gateway' ? 'gateway/dist/server.js' : `services/${what}/dist/server.js`;
      expect(existsSync(join(repoRoot, entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts'))), what).toBe(true);
      // The limit the local stack sizes the process's heap for (and bench:memory measures).
      expect(bytes(c.resources.limits.memory), what).toBe((MEMORY_LIMIT_MIB[what] as number) * 2 ** 20);
      expect(c.livenessProbe.httpGet, what).toMatchObject({ path: '/health/live', port: 'http' });
      expect(c.readinessProbe.httpGet, what).toMatchObject({ path: '/health/ready', port: 'http' });
      expect(
        c.ports.map((p: { name: string }) => p.name),
        what,
      ).toContain('http');
      expect(c.securityContext.readOnlyRootFilesystem, what).toBe(true);
      const tmp = c.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp');
      expect(pod.volumes.find((v: { name: string }) => v.name === tmp?.name)?.emptyDir, what).toBeTruthy();
      // The grace period covers the preStop pause and the process's own bounded shutdown.
      const preStop = Number(c.lifecycle?.preStop?.exec?.command?.at(-1) ?? 0);
      expect(pod.terminationGracePeriodSeconds, what).toBeGreaterThan(preStop + SHUTDOWN_FORCE_S);
      const envFrom = c.envFrom.map((e: { configMapRef?: { name: string }; secretRef?: { name: string } }) =>
        e.configMapRef ? `cm:${e.configMapRef.name}` : `secret:${e.secretRef?.name}`,
      );
      expect(envFrom, what).toEqual(['cm:homereport-config', 'secret:homereport-servers', 'secret:homereport-keys']);
      const service = named(objects, 'Service', what);
      expect(service?.spec.selector, what).toEqual({ 'app.kubernetes.io/name': what });
      const pdb = named(objects, 'PodDisruptionBudget', what);
      expect(pdb?.spec.selector.matchLabels, what).toEqual({ 'app.kubernetes.io/name': what });
      expect(pdb?.spec.minAvailable, what).toBeLessThan(minReplicas(objects, d));
    }
  });

  it('requests for each server at least the memory bench:memory measured under load on Node 24', () => {
    const peaks = measuredUnderLoad();
    expect(Object.keys(peaks).sort()).toEqual([...SERVERS].sort());
    for (const d of servers) {
      const what = d.metadata.name;
      const { requests, limits } = (podSpec(d).containers[0] as Container).resources;
      const peak = (peaks[what] as number) * 2 ** 20;
      expect(
        bytes(requests.memory),
        `${what}: request ${requests.memory}, measured ${peaks[what]} MB`,
      ).toBeGreaterThanOrEqual(peak);
      expect(bytes(limits.memory), what).toBeGreaterThan(bytes(requests.memory));
    }
    // requests grows while its outbox relay catches up (bench:soak ended at 137-139 MB).
    const requests = named(servers, 'Deployment', 'requests');
    expect(bytes(podSpec(requests as K8sObject).containers[0].resources.requests.memory)).toBeGreaterThanOrEqual(
      160 * 2 ** 20,
    );
  });

  it('scales the gateway, requests and leads with an autoscaler each, from two pods', () => {
    const hpas = byKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['gateway', 'leads', 'requests']);
    for (const h of hpas) expect(h.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('scales past the partitions of its topics only on CPU, for HTTP that every pod serves', () => {
    const partitions = topicPartitions(named(objects, 'ConfigMap', 'homereport-config')?.data);
    expect(partitions).toBeGreaterThanOrEqual(2);
    for (const h of byKind(objects, 'HorizontalPodAutoscaler')) {
      const what = h.metadata.name;
      // Every pod of the minimum holds a partition of each topic its group consumes.
      expect(h.spec.minReplicas, what).toBeLessThanOrEqual(partitions);
      if (h.spec.maxReplicas <= partitions) continue;
      // Pods beyond the partitions idle as consumers: an autoscaler driven by consumer lag
      // (External or Object metrics) would add pods that cannot help.
      for (const m of h.spec.metrics) expect(m.type, `${what}: ${JSON.stringify(m)}`).toBe('Resource');
      // ... so they must have HTTP to serve, through a Service in front of every pod.
      const service = named(objects, 'Service', h.spec.scaleTargetRef.name);
      expect(
        service?.spec.ports.map((p: { name: string }) => p.name),
        what,
      ).toContain('http');
    }
  });

  it('runs two pods of each Deployment at least, the count owned by the autoscaler where there is one', () => {
    const deployments = byKind(objects, 'Deployment');
    expect(deployments.filter(isServer).length).toBe(SERVERS.length);
    for (const d of deployments) {
      const what = d.metadata.name;
      const hpa = autoscalerOf(objects, d);
      // A `replicas` beside an autoscaler resets the scale to it on every `kubectl apply`.
      if (hpa) expect(d.spec.replicas, `${what} has an autoscaler: no replicas`).toBeUndefined();
      // The dev overlay's servers are single-node by design (like docker-compose.yml).
      if (d.metadata.labels?.['app.kubernetes.io/component'] === 'dev-server') {
        expect(overlay, what).toBe('dev');
        expect(d.spec.replicas, what).toBe(1);
        continue;
      }
      if (!hpa) expect(d.spec.replicas, what).toBeGreaterThanOrEqual(2);
      expect(minReplicas(objects, d), what).toBeGreaterThanOrEqual(2);
    }
    if (overlay === 'prod') expect(minReplicas(objects, named(objects, 'Deployment', 'gateway') as K8sObject)).toBe(3);
  });

  it('lets only the gateway reach the services (and requests its two callers), metrics from monitoring', () => {
    const policies = byKind(objects, 'NetworkPolicy');
    const labelsOf = (name: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'server' });
    const selects = (selector: K8sObject['spec'], labels: Record<string, string>) =>
      Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
      (selector.matchExpressions ?? []).every(
        (e: { key: string; operator: string; values: string[] }) =>
          e.operator === 'In' && e.values.includes(labels[e.key] as string),
      );
    const allowedOnHttp = (service: string) => {
      const names = new Set<string>();
      for (const p of policies.filter((p) => selects(p.spec.podSelector, labelsOf(service)))) {
        for (const rule of p.spec.ingress ?? []) {
          if (!(rule.ports ?? []).some((port: { port: string }) => port.port === 'http')) continue;
          if (!rule.from) names.add('*');
          for (const peer of rule.from ?? []) {
            expect(peer.namespaceSelector, `${p.metadata.name}: pods of this namespace only`).toBeUndefined();
            for (const name of SERVERS) if (selects(peer.podSelector, labelsOf(name))) names.add(name);
          }
        }
      }
      return [...names].sort();
    };
    expect(allowedOnHttp('gateway')).toEqual(['*']);
    for (const s of SERVICES)
      expect(allowedOnHttp(s), s).toEqual(s === 'requests' ? ['auth', 'files', 'gateway'] : ['gateway']);
    const metrics = policies.find((p) =>
      (p.spec.ingress ?? []).some((r: Container) => r.ports?.[0]?.port === 'metrics'),
    );
    expect(metrics?.spec.ingress[0].from[0].namespaceSelector.matchLabels).toEqual({
      'kubernetes.io/metadata.name': 'monitoring',
    });
  });

  it('gives every container of the product its memory limit, which sizes its heap', () => {
    const ours = workloads.filter((w) =>
      (podSpec(w).containers as Container[]).some((c) => String(c.image).split(/[:@]/)[0]?.endsWith('homereport')),
    );
    expect(ours.length).toBeGreaterThanOrEqual(SERVERS.length + 2);
    for (const w of ours) {
      for (const c of podSpec(w).containers as Container[]) {
        const what = `${w.kind} ${w.metadata.name} ${c.name}`;
        const limit = (c.env ?? []).find((e: { name: string }) => e.name === 'MEMORY_LIMIT_MIB');
        // The downward API: the container's own limit, in MiB, as heap.mjs reads it.
        expect(limit?.valueFrom?.resourceFieldRef, what).toEqual({ resource: 'limits.memory', divisor: '1Mi' });
        const mib = bytes(c.resources.limits.memory) / 2 ** 20;
        const flags = heapFlags({ MEMORY_LIMIT_MIB: String(mib) });
        expect(flags, what).toEqual([`--max-heap-size=${mib / 2}`]);
        if (isServer(w)) expect(flags, what).toEqual(NODE_FLAGS[w.metadata.name]);
        // A command of its own (a Job) runs node with the flags heap.mjs prints, as the image's CMD does.
        else expect((c.command ?? []).join(' '), what).toMatch(/exec node \$\(node packages\/kit\/bin\/heap\.mjs\) /);
      }
    }
  });

  it('spreads the replicas of every Deployment across nodes and zones', () => {
    for (const d of servers) {
      const what = d.metadata.name;
      const pod = podSpec(d);
      const labels = pod.metadata?.labels ?? d.spec.template.metadata.labels;
      const spread = (key: string) =>
        (pod.topologySpreadConstraints ?? []).find((t: { topologyKey: string }) => t.topologyKey === key);
      for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']) {
        const t = spread(key);
        expect(t, `${what}: ${key}`).toBeDefined();
        expect(t.maxSkew, what).toBe(1);
        // It counts this Deployment's pods: its selector matches them, and the app's own name
        // narrows it (matchLabelKeys), so one app's pods are not spread against another's.
        expect(
          Object.entries(t.labelSelector.matchLabels).every(([k, v]) => d.spec.template.metadata.labels[k] === v),
          what,
        ).toBe(true);
        expect(t.matchLabelKeys, what).toEqual(expect.arrayContaining(['app.kubernetes.io/name', 'pod-template-hash']));
        expect(labels['app.kubernetes.io/name'], what).toBe(what);
      }
      // Never two replicas on one node while another node can take one; zones where the cluster has them.
      expect(spread('kubernetes.io/hostname').whenUnsatisfiable, what).toBe('DoNotSchedule');
      // A cordoned node (a drain) is no place to count, or the replacement pod would wait Pending.
      expect(spread('kubernetes.io/hostname').nodeTaintsPolicy, what).toBe('Honor');
    }
  });

  it('routes the Ingress to the gateway and has the settings, the Jobs and no secret values', () => {
    const [ingress, ...otherIngresses] = byKind(objects, 'Ingress');
    expect(otherIngresses).toEqual([]);
    expect(ingress?.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'gateway', port: { name: 'http' } });
    // Its annotations are ingress-nginx's: without a class, another controller (or none) may
    // take it and ignore them (the 201 MiB upload body limit first).
    const annotations = Object.keys(ingress?.metadata.annotations ?? {});
    expect(annotations).toContain('nginx.ingress.kubernetes.io/proxy-body-size');
    if (annotations.some((a) => a.startsWith('nginx.ingress.kubernetes.io/')))
      expect(ingress?.spec.ingressClassName).toBe('nginx');
    const settings = named(objects, 'ConfigMap', 'homereport-config')?.data;
    expect(settings?.AUTH_URL).toBe('http://auth:4001');
    // On the managed cluster every topic the services create has three copies; dev's one broker one.
    expect(Number(settings?.KAFKA_REPLICATION_FACTOR ?? 1)).toBe(overlay === 'prod' ? 3 : 1);
    // The environment the local stack gives every process (and bench:memory measured).
    expect(settings).toMatchObject(PROCESS_ENV);
    for (const job of ['create-admin', 'zip-import']) expect(named(objects, 'Job', job)?.spec.suspend, job).toBe(true);
    const secrets = byKind(objects, 'Secret').map((s) => s.metadata.name);
    // The keys are always the operator's; prod's server credentials too.
    expect(secrets).toEqual(overlay === 'dev' ? ['homereport-servers'] : []);
  });

  it('puts every object in the overlay namespace', () => {
    const namespace = overlay === 'dev' ? 'homereport-dev' : 'homereport';
    expect(named(objects, 'Namespace', namespace)?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe(
      'restricted',
    );
    for (const o of objects.filter((o) => o.kind !== 'Namespace'))
      expect(o.metadata.namespace, o.metadata.name).toBe(namespace);
  });

  it(overlay === 'dev'
    ? 'runs the servers from the images docker-compose.yml pins'
    : 'runs no server of its own', () => {
    const own = workloads.filter((w) => w.metadata.labels?.['app.kubernetes.io/component'] === 'dev-server');
    if (overlay === 'prod') {
      expect(own).toEqual([]);
      return;
    }
    const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { image?: string }>;
    };
    const images = Object.fromEntries(own.map((w) => [w.metadata.name, podSpec(w).containers[0].image]));
    expect(images).toEqual({
      mongo: compose.services.mongo?.image,
      kafka: compose.services.kafka?.image,
      redis: compose.services.redis?.image,
      minio: compose.services.minio?.image,
      maildev: compose.services.maildev?.image,
    });
  });
});

// The base names the product's image `homereport` alone: each overlay sets what it runs (below).
describe.each(['overlays/dev', 'overlays/prod'])('images of kustomize build %s', (dir) => {
  it('are each pinned to a version, never latest nor untagged', () => {
    const images = buildDir(dir).flatMap((o) =>
      imagesIn(o).map((image) => ({ image, of: `${o.kind} ${o.metadata.name}` })),
    );
    expect(images.length).toBeGreaterThanOrEqual(SERVERS.length);
    for (const { image, of } of images) {
      const tag = tagOf(image);
      expect(tag ?? image.includes('@sha256:'), `${of}: ${image} has no tag`).toBeTruthy();
      expect(tag, `${of}: ${image}`).not.toBe('latest');
    }
  });
});

it("runs the product's image by commit and digest in prod, the machine's own build in dev", () => {
  const product = (dir: string) =>
    new Set(
      buildDir(dir)
        .flatMap((o) => imagesIn(o))
        .filter((i) => /(^|\/)homereport[:@]/.test(i)),
    );
  // A tag that every build reuses (the package version) makes two pods of one Deployment run
  // different code: prod names one commit's image by its digest (docs/runbooks/deploy.md).
  const [prod, ...otherProd] = [...product('overlays/prod')];
  expect(otherProd).toEqual([]);
  expect(prod).toMatch(/^[\w.-]+(:\d+)?\/([\w.-]+\/)*homereport:[0-9a-f]{12,40}@sha256:[0-9a-f]{64}$/);
  expect([...product('overlays/dev')]).toEqual(['homereport:dev']);
  // The deploy runbook names the step that writes it.
  const runbook = readFileSync(join(repoRoot, 'docs/runbooks/deploy.md'), 'utf8');
  expect(runbook).toContain('kustomize edit set image homereport=');
  expect(runbook).toMatch(/git rev-parse/);
});

it('commits a Secret template without a single value', () => {
  const docs = parseAllDocuments(readFileSync(join(k8sDir, 'secret.template.yaml'), 'utf8')).map(
    (d) => d.toJS() as K8sObject,
  );
  expect(docs.map((d) => d.metadata.name).sort()).toEqual([
    'homereport-admin',
    'homereport-keys',
    'homereport-servers',
  ]);
  for (const d of docs) {
    expect(d.data).toBeUndefined();
    for (const value of Object.values(d.stringData ?? {})) expect(value).toBe('');
  }
  // A managed Kafka cluster asks for TLS and SASL credentials beside its brokers (KafkaConfig).
  const servers = docs.find((d) => d.metadata.name === 'homereport-servers');
  expect(Object.keys(servers?.stringData ?? {})).toEqual(
    expect.arrayContaining(['KAFKA_BROKERS', 'KAFKA_SSL', 'KAFKA_SASL_MECHANISM', 'KAFKA_USERNAME', 'KAFKA_PASSWORD']),
  );
});
