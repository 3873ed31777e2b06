import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import { describe, expect, it } from 'vitest';

/*
 * patches/kafkajs+<version>.patch (applied by patch-package at `npm install`/`npm ci`) stops an
 * idle broker connection from re-arming a 1 ms timer forever. These checks fail when the patch is
 * not applied, when kafkajs is upgraded past the version it was written for, and when the
 * upstream code it replaces no longer busy-waits, i.e. when an upgrade has made it unnecessary.
 * The upstream code is the installed file with the patch taken back out, hunk by hunk.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const require = createRequire(import.meta.url);

interface Hunk {
  before: string;
  after: string;
}

function readPatch(): { version: string; file: string; hunks: Hunk[]; name: string } {
  const names = readdirSync(join(root, 'patches')).filter((n) => /^kafkajs\+.+\.patch$/.test(n));
  expect(names, 'exactly one kafkajs patch in patches/').toHaveLength(1);
  const name = names[0] as string;
  const text = readFileSync(join(root, 'patches', name), 'utf8');
  const file = /^\+\+\+ b\/node_modules\/kafkajs\/(.+)$/m.exec(text)?.[1];
  if (!file) throw new Error(`${name} names no kafkajs file`);
  const hunks = text
    .split(/^@@[^\n]*@@[^\n]*\n/m)
    .slice(1)
    .map((body) => {
      const lines = body.split('\n').filter((l) => /^[ +-]/.test(l) && !/^(\+\+\+|---) /.test(l));
      const side = (drop: string) =>
        lines
          .filter((l) => !l.startsWith(drop))
          .map((l) => l.slice(1))
          .join('\n');
      return { before: side('+'), after: side('-') };
    });
  return { version: name.slice('kafkajs+'.length, -'.patch'.length), file, hunks, name };
}

type QueueClass = new (options: object) => Queue;

interface Queue {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  scheduleCheckPendingRequests(): void;
}

/** Loads a RequestQueue class from source text, resolving its requires from the installed file. */
function loadQueue(source: string, path: string): QueueClass {
  const module = { exports: {} as unknown };
  compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'])(
    module.exports,
    createRequire(path),
    module,
    path,
    dirname(path),
  );
  return module.exports as QueueClass;
}

/** Whether a connection's queue with nothing pending arms a timer to look at it again. */
function armsTimerWhenIdle(RequestQueue: QueueClass): boolean {
  const noop = () => undefined;
  const queue = new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: true,
    clientId: 'patch-test',
    broker: 'localhost:0',
    logger: { debug: noop, info: noop, warn: noop, error: noop },
  });
  queue.scheduleCheckPendingRequests();
  const armed = queue.throttleCheckTimeoutId !== null;
  if (queue.throttleCheckTimeoutId) clearTimeout(queue.throttleCheckTimeoutId);
  return armed;
}

describe('the kafkajs idle-timer patch', () => {
  const patch = readPatch();
  const installedPath = require.resolve(`kafkajs/${patch.file}`);
  const installed = readFileSync(installedPath, 'utf8');

  it('is written for the installed kafkajs version', () => {
    const { version } = JSON.parse(readFileSync(require.resolve('kafkajs/package.json'), 'utf8')) as {
      version: string;
    };
    // After an upgrade: check the tests below against the new version, then recreate the patch
    // (`npx patch-package kafkajs`) or delete it.
    expect(version, `${patch.name} was made for another kafkajs`).toBe(patch.version);
  });

  it('is applied to the installed package (npm install runs patch-package)', () => {
    for (const hunk of patch.hunks) expect(installed).toContain(hunk.after);
    expect(armsTimerWhenIdle(loadQueue(installed, installedPath))).toBe(false);
  });

  it('is still needed: the upstream code re-arms a timer with nothing pending', () => {
    let upstream = installed;
    for (const hunk of patch.hunks) upstream = upstream.replace(hunk.after, hunk.before);
    // Fails when upstream stopped busy-waiting: then delete the patch and this test.
    expect(armsTimerWhenIdle(loadQueue(upstream, installedPath))).toBe(true);
  });
});
