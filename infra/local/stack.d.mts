export const SERVICES: string[];
export const DIST_CONDITION: string;
/** Container memory limit of each process in MiB, as the Kubernetes manifests set it. */
export const MEMORY_LIMIT_MIB: Record<string, number>;
/** V8 flags of each process, by name: its heap sized from MEMORY_LIMIT_MIB (packages/kit/bin/heap.mjs). */
export const NODE_FLAGS: Record<string, string[]>;
/** Environment every process starts with (the image and the Kubernetes ConfigMap set the same). */
export const PROCESS_ENV: Record<string, string>;
export type StackRuntime = 'source' | 'watch' | 'compiled';
/** `npm run migrate` for these services' databases (default all), in the stack's runtime; throws if it fails. */
export function runMigrations(
  runtime: StackRuntime,
  env: Record<string, string | undefined>,
  services?: string[],
  log?: (m: string) => void,
): Promise<void>;
export function processArgs(runtime: StackRuntime, name: string, flags?: string[]): string[];
/** Ports of one instance of every process. */
export interface InstancePorts {
  services: Record<string, number>;
  gateway: number;
  /** Prometheus metrics port of each process, the gateway's included. */
  metrics: Record<string, number>;
}
/** The first instance's ports, and every instance's in `instances`. */
export interface StackPorts extends InstancePorts {
  instances: InstancePorts[];
}
/** Milliseconds to wait before restarting a process after this many crashes in a row (0 after the first). */
export function restartDelayMs(crashesInARow: number): number;
/** LOCAL_REPLICAS (or `value`) checked: 1 to 4. */
export function replicaCount(value?: string | number): number;
export function stackPorts(profile: 'dev' | 'test', options?: { offset?: number; replicas?: number }): StackPorts;
export interface StackProcess {
  /** `<service>` for the first instance, `<service>-<n>` for the n-th. */
  name: string;
  service: string;
  port: number;
  /** The running child; replaced when the stack restarts a process that exited. */
  child: import('node:child_process').ChildProcess;
}
export function startStack(options: {
  profile: 'dev' | 'test';
  settings: Record<string, string>;
  logDir?: string;
  pretty: boolean;
  /** Settings of one process only, by process name (`<name>-2`: the second instance only). */
  processSettings?: Record<string, Record<string, string>>;
  runtime?: StackRuntime;
  log?: (m: string) => void;
  /** Instances of every service and gateways; LOCAL_REPLICAS, else 1. */
  replicas?: number;
  /** Test profile: ports at this offset instead of TEST_PORT_OFFSET's. */
  offset?: number;
  /** Only these services (default all). */
  services?: string[];
  /** Run the databases' migrations first (default true; decision 028). */
  migrate?: boolean;
}): Promise<{ ports: StackPorts; url: string; urls: string[]; stop(): Promise<void>; processes: StackProcess[] }>;
