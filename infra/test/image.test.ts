// The Dockerfile and docker-compose.yml, read as text (no Docker engine here to build them):
// a pinned, supported Node base, production dependencies only in the image that runs, a
// non-root user, plain node on the compiled files, and every server image pinned.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cacheDir, repoRoot } from '../local/servers.mjs';
import { NODE_FLAGS, PROCESS_ENV, SERVICES } from '../local/stack.mjs';

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
/** Supported Node LTS lines: 22 (maintenance until April 2027) and 24 (active). */
const SUPPORTED_NODE_MAJORS = [22, 24];

describe('Dockerfile', () => {
  it('builds from one pinned Node LTS release, the one CI runs the compiled build on', () => {
    const arg = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-bookworm-slim$/m.exec(dockerfile);
    expect(arg, 'ARG NODE_IMAGE=node:<major>.<minor>.<patch>-bookworm-slim').not.toBeNull();
    const [, major, minor, patch] = arg as RegExpExecArray;
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

  it('starts plain node on the compiled server of the process SERVICE names', () => {
    const cmd = runtime.find((l) => /^CMD /.test(l));
    const argv = JSON.parse((cmd ?? '').slice(4)) as string[];
    expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
    const script = argv[2] ?? '';
    const commands = [...script.matchAll(/exec ([^;]+?) ;;/g)].map((m) => (m[1] ?? '').split(/\s+/));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command[0]).toBe('node');
      expect(command.at(-1)).toMatch(/^(gateway|services\/(\$SERVICE|[a-z]+))\/dist\/server\.js$/);
    }
    for (const name of ['gateway', ...SERVICES]) {
      const entry = name === 'gateway' ? 'gateway/dist/server.js' : `services/${name}/dist/server.js`;
      const command =
        commands.find((c) => c.at(-1) === entry) ??
        (name === 'gateway' ? undefined : commands.find((c) => c.at(-1) === 'services/$SERVICE/dist/server.js'));
      expect(command, name).toBeDefined();
      // The same V8 flags as the local stack runs it with (and bench:memory measured).
      expect(command?.slice(1, -1), name).toEqual(NODE_FLAGS[name] ?? []);
      // The compiled entry comes from this source file.
      expect(existsSync(join(repoRoot, entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts'))), name).toBe(true);
    }
  });
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
