export const SERVICES: string[];
export const DIST_CONDITION: string;
/** V8 flags of each process, by name (the image and the Kubernetes manifests use the same). */
export const NODE_FLAGS: Record<string, string[]>;
export type StackRuntime = 'source' | 'watch' | 'compiled';
export function processArgs(runtime: StackRuntime, name: string, flags?: string[]): string[];
export interface StackPorts {
  services: Record<string, number>;
  gateway: number;
  /** Prometheus metrics port of each process, the gateway's included. */
  metrics: Record<string, number>;
}
export function stackPorts(profile: 'dev' | 'test'): StackPorts;
export function startStack(options: {
  profile: 'dev' | 'test';
  settings: Record<string, string>;
  logDir?: string;
  pretty: boolean;
  /** Settings of one process only, by process name. */
  processSettings?: Record<string, Record<string, string>>;
  runtime?: StackRuntime;
  log?: (m: string) => void;
}): Promise<{ ports: StackPorts; url: string; stop(): Promise<void> }>;
