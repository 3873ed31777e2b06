// The Dockerfile and docker-compose.yml, read as text (no Docker engine here to build them):
// a pinned, supported Node base, production dependencies only in the image that runs, a
// non-root user, plain node on the compiled files, and every server image pinned.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cacheDir, repoRoot } from '../local/servers.mjs';
import { MEMORY_LIMIT_MIB, NODE_FLAGS, PROCESS_ENV, SERVICES } from '../local/stack.mjs';

const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
/** Instructions, continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages: string[][] = [];
for (const line of instructions) {
  if (/^FROM /i.test(line)) stages.push([]);
  stages.at(-1)?.push(line);
}
const runtime = stages.at(-1) ?? [];
const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  engines?: { node?: string };
  workspaces: string[];
};
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};
/** The workspaces the servers run from: their production dependencies are the image's. */
const SERVER_WORKSPACES = ['packages/kit', 'packages/contracts', ...SERVICES.map((s) => `services/${s}`), 'gateway'];
/** Supported Node LTS lines: 22 (maintenance until April 2027) and 24 (active). */
const SUPPORTED_NODE_MAJORS = [22, 24];

describe('Dockerfile', () => {
  it('builds from one pinned Node LTS release, the one CI runs the compiled build on', () => {
    const arg = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-bookworm-slim(@sha256:[0-9a-f]{64})?$/m.exec(dockerfile);
    expect(arg, 'ARG NODE_IMAGE=node:<major>.<minor>.<patch>-bookworm-slim[@sha256:<digest>]').not.toBeNull();
    const [, major, minor, patch, digest] = arg as RegExpExecArray;
    // Without a digest, the Dockerfile says why and how to add one.
    if (!digest) expect(dockerfile).toMatch(/# .*docker buildx imagetools inspect node:\d+\.\d+\.\d+-bookworm-slim/);
    expect(SUPPORTED_NODE_MAJORS).toContain(Number(major));
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM \$\{NODE_IMAGE\}( AS \w+)?$/);
    const provision = readFileSync(join(repoRoot, 'infra/local/provision.sh'), 'utf8');
    expect(provision).toContain(`NODE_LTS_VERSION="${major}.${minor}.${patch}"`);
  });

  it('installs production dependencies only, from the lockfile, in the image that runs', () => {
    const installs = runtime.filter((l) => /\bnpm (ci|install|i)\b/.test(l));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/\bnpm ci\b/);
    expect(installs[0]).toContain('--omit=dev');
    expect(runtime.join('\n')).not.toMatch(/\btsx\b|\btsc\b|\bnpm install\b/);
    // The build stage installs from the lockfile too.
    expect(instructions.filter((l) => /\bnpm install\b/.test(l))).toEqual([]);
    // With --ignore-scripts the root postinstall (patch-package) does not run there: the
    // patched kafkajs must come from the build stage, where it ran.
    if (installs[0]?.includes('--ignore-scripts') && !rootPackage.dependencies?.['patch-package'])
      expect(runtime).toContain('COPY --from=build /app/node_modules/kafkajs node_modules/kafkajs');
  });

  it("installs the servers' workspaces only, none of web's dependencies", () => {
    const install = runtime.find((l) => /\bnpm ci\b/.test(l)) ?? '';
    const flags = [...install.matchAll(/--workspace[= ](\S+)/g)].map((m) => m[1]);
    expect(flags.sort()).toEqual([...SERVER_WORKSPACES].sort());
  });

  it('copies every workspace and its compiled files into the image that runs', () => {
    const dirs = ['packages/kit', 'packages/contracts', ...SERVICES.map((s) => `services/${s}`), 'gateway'];
    for (const dir of dirs) {
      expect(runtime, dir).toContain(`COPY --from=build /app/${dir}/package.json ${dir}/`);
      expect(runtime, dir).toContain(`COPY --from=build /app/${dir}/dist ${dir}/dist`);
    }
    expect(runtime).toContain('COPY --from=build /app/web/dist web/dist');
    // Files the compiled code reads beside itself.
    expect(runtime).toContain('COPY --from=build /app/services/auth/data services/auth/data');
  });

  it('runs as a non-root user, in production mode, resolving the workspaces to their dist/', () => {
    const users = runtime.filter((l) => /^USER /.test(l));
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^USER (root|0)(:|$)/);
    const env = runtime.find((l) => /^ENV /.test(l)) ?? '';
    expect(env).toContain('NODE_ENV=production');
    expect(env).toContain('NODE_OPTIONS=--conditions=homereport-dist');
    // The environment the local stack gives every process (and bench:memory measured).
    const envs = runtime.filter((l) => /^ENV /.test(l)).join(' ');
    for (const [key, value] of Object.entries(PROCESS_ENV)) expect(envs, key).toContain(`${key}=${value}`);
  });

  it('starts plain node on the compiled server of the process SERVICE names, and nothing else', () => {
    const cmd = runtime.find((l) => /^CMD /.test(l));
    const argv = JSON.parse((cmd ?? '').slice(4)) as string[];
    expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
    // The CMD's own shell script, run with a `node` that prints what it was given, except the
    // heap module's run, which it hands to this Node (the flag it prints is what the CMD uses).
    const dir = mkdtempSync(join(tmpdir(), 'homereport-cmd-'));
    try {
      writeFileSync(
        join(dir, 'node'),
        `#!/bin/sh\n[ "$1" = packages/kit/bin/heap.mjs ] && exec '${process.execPath}' "$@"\nprintf "%s\\n" node "$@"\n`,
      );
      chmodSync(join(dir, 'node'), 0o755);
      const run = (service: string | undefined, limit = '256') => {
        const env: NodeJS.ProcessEnv = { PATH: `${dir}:/usr/bin:/bin`, MEMORY_LIMIT_MIB: limit };
        if (service !== undefined) env.SERVICE = service;
        return spawnSync('sh', ['-c', argv[2] as string], { cwd: repoRoot, env, encoding: 'utf8' });
      };
      for (const name of ['gateway', ...SERVICES]) {
        const limit = String(MEMORY_LIMIT_MIB[name]);
        const { status, stdout, stderr } = run(name, limit);
        expect(status, `${name}: ${stderr}`).toBe(0);
        const command = stdout.trim().split('\n');
        const entry = name === 'gateway' ? 'gateway/dist/server.js' : `services/${name}/dist/server.js`;
        // The heap sized from the container's limit, as the local stack runs it (and bench:memory measured).
        expect(command, name).toEqual(['node', ...(NODE_FLAGS[name] ?? []), entry]);
        expect(command[1], name).toBe(`--max-heap-size=${Number(limit) / 2}`);
        // The compiled entry comes from this source file.
        expect(existsSync(join(repoRoot, entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts'))), name).toBe(true);
      }
      // A limit that is not a number stops the container, naming the setting.
      const bad = run('gateway', '256Mi');
      expect(bad.status).not.toBe(0);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toContain('MEMORY_LIMIT_MIB');
      // Unset, empty or unknown: no node started, a message that names the choices.
      for (const service of [undefined, '', 'gatewy', '../gateway', 'gateway files']) {
        const { status, stdout, stderr } = run(service);
        expect(status, String(service)).not.toBe(0);
        expect(stdout, String(service)).toBe('');
        expect(stderr, String(service)).toMatch(/SERVICE/);
        expect(stderr, String(service)).toContain(['gateway', ...SERVICES].join(', '));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks its health with node on the process's own /health/ready, no curl in a slim image", async () => {
    const checks = runtime.filter((l) => /^HEALTHCHECK /.test(l));
    expect(checks).toHaveLength(1);
    const check = checks[0] as string;
    expect(check).not.toMatch(/\b(curl|wget)\b/);
    const argv = JSON.parse(check.slice(check.indexOf(' CMD ') + 5)) as string[];
    expect(argv.slice(0, 2)).toEqual(['node', '-e']);
    expect(argv[2]).toContain('/health/ready');
    // Run it against a server that answers as a process would.
    let status = 200;
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const probe = async (env: NodeJS.ProcessEnv) => {
      const { spawn } = await import('node:child_process');
      const child = spawn(process.execPath, ['-e', argv[2] as string], { env: { PATH: process.env.PATH, ...env } });
      return new Promise<number | null>((resolve) => child.on('exit', resolve));
    };
    try {
      expect(await probe({ PORT: String(port), SERVICE: 'requests' })).toBe(0);
      expect(paths).toEqual(['/health/ready']);
      status = 503;
      expect(await probe({ PORT: String(port), SERVICE: 'requests' })).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // Nothing listening there any more.
    expect(await probe({ PORT: String(port), SERVICE: 'requests' })).toBe(1);
    // Without PORT, the process's default port (4001-4006, the gateway 8080).
    expect(argv[2]).toMatch(
      /gateway:8080,auth:4001,requests:4002,files:4003,zipcodes:4004,leads:4005,notifications:4006/,
    );
  });
});

describe("the runtime stage's install, run by npm (--dry-run, in a copy)", () => {
  it("resolves from the lockfile with the servers' production dependencies and none of web's", () => {
    const install = runtime.find((l) => /\bnpm ci\b/.test(l)) ?? '';
    const command = (/^RUN (npm ci .*?)(?: && |$)/.exec(install)?.[1] ?? '').split(/\s+/);
    expect(command.slice(0, 2)).toEqual(['npm', 'ci']);
    const dir = mkdtempSync(join(tmpdir(), 'homereport-npm-ci-'));
    try {
      // What the runtime stage copies before it installs.
      const files = runtime
        .flatMap((l) => /^COPY --from=build (.+) \S+$/.exec(l)?.[1]?.split(/\s+/) ?? [])
        .map((f) => f.replace(/^\/app\//, ''))
        .filter((f) => /(^|\/)package(-lock)?\.json$/.test(f));
      expect(files).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'web/package.json']));
      for (const file of files) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        cpSync(join(repoRoot, file), join(dir, file));
      }
      const out = execFileSync('npm', [...command.slice(1), '--dry-run'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      const added = new Set([...out.matchAll(/^add (\S+) /gm)].map((m) => m[1]));
      for (const pkg of [
        'fastify',
        'mongodb',
        'kafkajs',
        'ioredis',
        'argon2',
        '@homereport/kit',
        '@homereport/gateway',
      ])
        expect(added.has(pkg), pkg).toBe(true);
      for (const pkg of ['react', 'react-dom', 'recharts', 'web', 'vite', 'vitest', 'typescript', 'tsx'])
        expect(added.has(pkg), pkg).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('package.json engines', () => {
  const range = rootPackage.engines?.node ?? '';
  /** Each workspace's directory (the root's `workspaces`, `dir/*` expanded). */
  const workspaces = rootPackage.workspaces.flatMap((w) =>
    w.endsWith('/*')
      ? readdirSync(join(repoRoot, w.slice(0, -2)), { withFileTypes: true })
          .filter((e) => e.isDirectory() && existsSync(join(repoRoot, w.slice(0, -2), e.name, 'package.json')))
          .map((e) => `${w.slice(0, -2)}/${e.name}`)
      : [w],
  );

  it('asks for the Node the code needs, no older', () => {
    expect(semver.validRange(range), range).toBeTruthy();
    // process.getBuiltinModule (the kit's S3 module and metrics server): 20.16 and 22.3; Vite 7
    // (web's build): ^20.19 || >=22.12. Node 21 and 23 are out of support.
    for (const old of ['18.20.0', '20.15.0', '20.18.3', '21.7.3', '22.11.0'])
      expect(semver.satisfies(old, range), old).toBe(false);
    for (const ok of ['20.19.0', '22.12.0', '24.0.0']) expect(semver.satisfies(ok, range), ok).toBe(true);
  });

  it("is satisfied by every Node CI runs: this machine's, the one provision installs, the image's", () => {
    const versions = [execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()];
    const node24 = join(cacheDir, 'node-24.21.0', 'bin', 'node');
    if (!existsSync(node24)) throw new Error(`${node24} is missing: run npm run provision`);
    versions.push(execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim());
    const image = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-/m.exec(dockerfile)?.[1];
    expect(image).toBeDefined();
    versions.push(`v${image}`);
    for (const v of versions) expect(semver.satisfies(v, range), `${v} against ${range}`).toBe(true);
  });

  it('says the same in the lockfile and in every workspace that names an engine', () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    expect(lock.packages['']?.engines?.node).toBe(range);
    expect(workspaces.length).toBeGreaterThanOrEqual(10);
    for (const dir of workspaces) {
      const pkg = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as {
        engines?: { node?: string };
      };
      if (pkg.engines?.node !== undefined) expect(pkg.engines.node, dir).toBe(range);
      expect(lock.packages[dir]?.engines?.node, dir).toBe(pkg.engines?.node);
    }
  });
});

describe('docker-compose.yml', () => {
  type Service = {
    image?: string;
    build?: unknown;
    healthcheck?: unknown;
    depends_on?: string[] | Record<string, { condition: string }>;
  };
  // merge: the services share their settings through `<<: *service`.
  const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };
  /** A service's dependencies with their conditions (a list means service_started). */
  const dependsOn = (s: Service | undefined) =>
    Array.isArray(s?.depends_on)
      ? Object.fromEntries(s.depends_on.map((d) => [d, 'service_started']))
      : Object.fromEntries(Object.entries(s?.depends_on ?? {}).map(([d, c]) => [d, c.condition]));
  /** Healthy: a healthcheck of its own, or the image's (Dockerfile HEALTHCHECK) when built here. */
  const hasHealthcheck = (name: string) => {
    const s = compose.services[name];
    return Boolean(s?.healthcheck) || (Boolean(s?.build) && runtime.some((l) => /^HEALTHCHECK /.test(l)));
  };

  it('starts the gateway once every service and Redis are healthy', () => {
    const deps = dependsOn(compose.services.gateway);
    for (const name of [...SERVICES, 'redis']) {
      expect(deps[name], name).toBe('service_healthy');
      expect(hasHealthcheck(name), name).toBe(true);
    }
  });

  it('starts each service once the servers it uses are healthy, where they have a healthcheck', () => {
    for (const name of SERVICES) {
      const deps = dependsOn(compose.services[name]);
      for (const server of ['mongo', 'kafka', 'redis', 'minio']) {
        expect(hasHealthcheck(server), server).toBe(true);
        expect(deps[server], `${name} on ${server}`).toBe('service_healthy');
      }
      // maildev's image has no healthcheck of its own: started is what compose can wait for.
      // The migrations run once and exit: the services wait for them to have succeeded.
      expect(deps.migrate, `${name} on migrate`).toBe('service_completed_successfully');
      for (const [dep, condition] of Object.entries(deps))
        if (hasHealthcheck(dep) && dep !== 'migrate') expect(condition, `${name} on ${dep}`).toBe('service_healthy');
    }
  });

  it('pins every server image to a release', () => {
    const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { image?: string; build?: unknown }>;
    };
    const images = Object.entries(compose.services).filter(([, s]) => s.image);
    expect(images.length).toBe(5);
    for (const [name, { image }] of images) {
      const tag = (image ?? '').split(':')[1] ?? '';
      expect(tag, name).not.toBe('latest');
      // A release: at least major.minor, or MinIO's dated RELEASE tag.
      expect(tag, `${name}: ${image}`).toMatch(/^(\d+\.\d+(\.\d+)?|RELEASE\.\d{4}-\d{2}-\d{2}T[\dZ-]+)$/);
    }
  });
});
