import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { kafka as kafkaServer, portInUse, stopByPidFile, waitForPort } from '../../infra/local/servers.mjs';
import { FAULT_WINDOWS_FILE } from '../log-check.js';
import { eventually } from './api.js';
import { testEnv } from './env.js';
import { testKafka } from './events.js';

/**
 * Runs a test step that breaks something on purpose (stops Kafka, sends a poison event, kills a
 * process). The services may rightly log errors meanwhile; the end-of-run log check (see
 * test/log-check.ts) does not count the ERROR lines written during this window.
 */
export async function injectingFault<T>(what: string, step: () => Promise<T>): Promise<T> {
  const from = Date.now();
  try {
    return await step();
  } finally {
    appendFileSync(join(testEnv().dataDir, FAULT_WINDOWS_FILE), `${JSON.stringify({ what, from, to: Date.now() })}\n`);
  }
}

/** The local servers a test may pause (each runs as its own process group; see infra/local/servers.mjs). */
export type PausableServer = 'mongo' | 'redis' | 'kafka' | 'versitygw' | 'maildev';

/**
 * Pauses a local server as a hung one behaves: its process stops (SIGSTOP to its process group),
 * its sockets stay open and nothing answers. Returns the call that resumes it (SIGCONT). Only
 * the local servers are ours to pause: with containers or explicit URLs this throws.
 */
export function pauseServer(name: PausableServer): () => void {
  const env = testEnv();
  if (env.mode !== 'local') throw new Error(`pausing ${name} needs the local servers (this run uses ${env.mode})`);
  const pid = Number(readFileSync(join(env.dataDir, `${name}.pid`), 'utf8'));
  process.kill(-pid, 'SIGSTOP');
  return () => process.kill(-pid, 'SIGCONT');
}

/** The stack's consumer groups that have members now (test taps and fixtures' groups aside). */
async function liveGroups(admin: Admin): Promise<Map<string, number>> {
  const { groups } = await admin.listGroups();
  const names = groups.map((g) => g.groupId).filter((id) => !id.startsWith('event-tap-'));
  if (names.length === 0) return new Map();
  const described = await admin.describeGroups(names);
  return new Map(
    described.groups
      .filter((g) => g.state === 'Stable' && g.members.length > 0)
      .map((g) => [g.groupId, g.members.length]),
  );
}

/**
 * Stops the run's local Kafka (the whole stack loses it) and returns the call that starts it
 * again. That call resolves once every consumer group that had members before the stop is
 * Stable with as many again, so the next test file finds the stack's consumers as it found them
 * and not still rejoining; a group that never comes back fails here, named, not in a later file.
 */
export async function stopKafka(): Promise<{ restart: () => Promise<void> }> {
  const env = testEnv();
  const port = env.infraPorts.kafka;
  if (env.mode !== 'local' || port === undefined)
    throw new Error(`stopping Kafka needs the local servers (this run uses ${env.mode})`);
  const kafka = testKafka('kafka-fault');
  const admin = kafka.admin();
  await admin.connect();
  const before = await liveGroups(admin).finally(() => admin.disconnect());
  await stopByPidFile(env.dataDir, 'kafka');
  await eventually(async () => !(await portInUse(port)), 20_000, 'Kafka to stop');
  let restarted: Promise<void> | undefined;
  const restart = async () => {
    const from = Date.now();
    await kafkaServer(env.infraPorts, env.dataDir).start();
    await waitForPort(port);
    const after = kafka.admin();
    await after.connect();
    try {
      await eventually(
        async () => {
          const now = await liveGroups(after).catch(() => new Map<string, number>());
          return [...before].every(([group, members]) => (now.get(group) ?? 0) >= members);
        },
        90_000,
        `the consumer groups ${[...before.keys()].join(', ')} to be back after Kafka's restart`,
      );
      console.log(`[kafka] restarted; groups ${[...before.keys()].join(', ')} back in ${Date.now() - from} ms`);
    } finally {
      await after.disconnect();
    }
  };
  return {
    restart: () => {
      restarted ??= restart();
      return restarted;
    },
  };
}
