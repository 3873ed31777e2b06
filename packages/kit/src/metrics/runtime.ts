import { readFileSync, readdirSync } from 'node:fs';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { GCProfiler, type HeapSpaceInfo, getHeapSpaceStatistics } from 'node:v8';
import { Counter, Gauge, type Registry } from 'prom-client';
import { BucketHistogram, type HistogramSeries, seriesOf } from './histogram.js';

/**
 * Node's runtime metrics under the names prom-client's `collectDefaultMetrics` gives them (the
 * dashboard and the alert rules read those), measured without per-collection JavaScript.
 *
 * prom-client times garbage collection with a PerformanceObserver: every collection schedules a
 * callback that builds an entry object and observes a histogram, and a busy gateway scavenges
 * hundreds of times a second. In bench:metrics that collector alone cost the gateway about 7% of
 * its requests per second on a session check, more than the 5% the metrics may cost in all (and it
 * observed only the first entry of each batch, so it undercounted). Here V8's GCProfiler records
 * each collection natively; its record is read and folded into the histogram when Prometheus
 * scrapes, and every FOLD_MS meanwhile so an unscraped process does not accumulate it. Everything
 * else is read at scrape time only.
 */
const FOLD_MS = 5000;
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];

/** V8's collection types (GCProfiler's `gcType`) as prom-client's `kind` label names them. */
const GC_KINDS: Record<string, string> = {
  Scavenge: 'minor',
  MinorMarkSweep: 'minor',
  MinorMarkCompact: 'minor',
  MarkSweepCompact: 'major',
  IncrementalMarking: 'incremental',
  ProcessWeakCallbacks: 'weakcb',
};

export const gcDuration = new BucketHistogram(
  'nodejs_gc_duration_seconds',
  'Garbage collection duration by kind, one of: major, minor, incremental or weakcb.',
  ['kind'],
  GC_BUCKETS,
);

class GcRecorder {
  private profiler = new GCProfiler();
  private readonly byKind = new Map<string, HistogramSeries>();

  constructor() {
    this.profiler.start();
    setInterval(() => this.fold(), FOLD_MS).unref();
  }

  /** Moves what the profiler recorded since the last fold into the histogram. */
  fold(): void {
    const { statistics } = this.profiler.stop();
    this.profiler = new GCProfiler();
    this.profiler.start();
    for (const { gcType, cost } of statistics) {
      const kind = GC_KINDS[gcType] ?? 'other';
      // `cost` is in microseconds.
      seriesOf(gcDuration, this.byKind, kind, { kind }).observe(cost / 1e6);
    }
  }
}

function readProcFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Registers the runtime metrics on `registry`; returns the reading each scrape takes first. */
export function collectRuntimeMetrics(registry: Registry): () => void {
  const registers = [registry];
  const gc = new GcRecorder();
  const delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();

  // Read once before each scrape (the function returned below), so gauges that share a reading
  // agree and the delay statistics cover the time since the previous scrape.
  const snapshot = {
    cpu: process.cpuUsage(),
    memory: process.memoryUsage(),
    spaces: [] as HeapSpaceInfo[],
    delay: {} as Record<string, number>,
  };

  // Counters of CPU seconds since the metrics were enabled, as prom-client counts them.
  const cpuCounters: [string, string, (usage: NodeJS.CpuUsage) => number][] = [
    ['process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.', (u) => u.user],
    ['process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.', (u) => u.system],
    ['process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.', (u) => u.user + u.system],
  ];
  for (const [name, help, read] of cpuCounters) {
    let counted = read(snapshot.cpu);
    new Counter({
      name,
      help,
      registers,
      collect() {
        const now = read(snapshot.cpu);
        this.inc((now - counted) / 1e6);
        counted = now;
      },
    });
  }

  const startTime = Math.round(Date.now() / 1000 - process.uptime());
  new Gauge({
    name: 'process_start_time_seconds',
    help: 'Start time of the process since unix epoch in seconds.',
    registers,
    collect() {
      this.set(startTime);
    },
  });
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size in bytes.',
    registers,
    collect() {
      this.set(snapshot.memory.rss);
    },
  });
  if (process.platform === 'linux') {
    new Gauge({
      name: 'process_open_fds',
      help: 'Number of open file descriptors.',
      registers,
      collect() {
        try {
          // One entry is the descriptor readdir itself opened.
          this.set(readdirSync('/proc/self/fd').length - 1);
        } catch {
          // Not readable here: the gauge keeps its last value.
        }
      },
    });
    const maxFds = /Max open files\s+(\d+)/.exec(readProcFile('/proc/self/limits') ?? '')?.[1];
    if (maxFds) {
      new Gauge({
        name: 'process_max_fds',
        help: 'Maximum number of open file descriptors.',
        registers,
      }).set(Number(maxFds));
    }
  }

  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers,
    async collect() {
      const start = process.hrtime.bigint();
      await new Promise((resolve) => setImmediate(resolve));
      this.set(Number(process.hrtime.bigint() - start) / 1e9);
    },
  });
  const delayStats: [string, string, (h: IntervalHistogram) => number][] = [
    ['min', 'minimum', (h) => h.min],
    ['max', 'maximum', (h) => h.max],
    ['mean', 'mean', (h) => h.mean],
    ['stddev', 'standard deviation', (h) => h.stddev],
    ['p50', '50th percentile', (h) => h.percentile(50)],
    ['p90', '90th percentile', (h) => h.percentile(90)],
    ['p99', '99th percentile', (h) => h.percentile(99)],
  ];
  for (const [suffix, what] of delayStats) {
    new Gauge({
      name: `nodejs_eventloop_lag_${suffix}_seconds`,
      help: `The ${what} of the event loop delays recorded since the last scrape.`,
      registers,
      collect() {
        this.set(snapshot.delay[suffix] ?? 0);
      },
    });
  }

  new Gauge({
    name: 'nodejs_active_resources',
    help: 'Resources keeping the event loop alive, by type (process.getActiveResourcesInfo()).',
    labelNames: ['type'] as const,
    registers,
    collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
      for (const [type, count] of counts) this.set({ type }, count);
    },
  });

  const memoryGauges: [string, string, keyof NodeJS.MemoryUsage][] = [
    ['nodejs_heap_size_total_bytes', 'Process heap size from Node.js in bytes.', 'heapTotal'],
    ['nodejs_heap_size_used_bytes', 'Process heap size used from Node.js in bytes.', 'heapUsed'],
    ['nodejs_external_memory_bytes', 'Node.js external memory size in bytes.', 'external'],
  ];
  for (const [name, help, field] of memoryGauges) {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(snapshot.memory[field]);
      },
    });
  }
  const spaceGauges: [string, string, 'space_size' | 'space_used_size' | 'space_available_size'][] = [
    ['total', 'total', 'space_size'],
    ['used', 'used', 'space_used_size'],
    ['available', 'available', 'space_available_size'],
  ];
  for (const [suffix, what, field] of spaceGauges) {
    new Gauge({
      name: `nodejs_heap_space_size_${suffix}_bytes`,
      help: `Process heap space size ${what} from Node.js in bytes.`,
      labelNames: ['space'] as const,
      registers,
      collect() {
        for (const s of snapshot.spaces) this.set({ space: s.space_name.replace(/_space$/, '') }, s[field]);
      },
    });
  }

  const [major, minor, patch] = process.versions.node.split('.');
  new Gauge({
    name: 'nodejs_version_info',
    help: 'Node.js version info.',
    labelNames: ['version', 'major', 'minor', 'patch'] as const,
    registers,
  }).set({ version: process.version, major: major ?? '', minor: minor ?? '', patch: patch ?? '' }, 1);

  return () => {
    gc.fold();
    snapshot.cpu = process.cpuUsage();
    snapshot.memory = process.memoryUsage();
    snapshot.spaces = getHeapSpaceStatistics();
    snapshot.delay = Object.fromEntries(
      delayStats.map(([suffix, , read]) => [suffix, delay.count > 0 ? read(delay) / 1e9 : 0]),
    );
    delay.reset();
  };
}
