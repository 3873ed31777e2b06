export const repoRoot: string;
export const cacheDir: string;
export const MONGO_JAVA_SERVER_VERSION: string;
export function infraPorts(profile: 'dev' | 'test', offset?: number): Record<string, number>;
export function provision(options?: { withBrowser?: boolean }): void;
export function stopByPidFile(dataDir: string, name: string, timeoutMs?: number): Promise<void>;
export function waitForPort(port: number, options?: { timeoutMs?: number; name?: string }): Promise<void>;
/** Whether something accepts a connection on 127.0.0.1:port now (one attempt). */
export function portInUse(port: number): Promise<boolean>;
export interface LocalServer {
  name: string;
  port: number;
  logFile: string;
  start(): Promise<LocalServer>;
  stop(timeoutMs?: number): Promise<void>;
}
export function mongo(ports: Record<string, number>, dataDir: string): LocalServer;
export function kafka(ports: Record<string, number>, dataDir: string): LocalServer;
/** Toxiproxy's server on `ports.api` (toxiproxy.mjs, toxiproxyPorts). */
export function toxiproxyServer(ports: { api: number }, dataDir: string): LocalServer;
export function startInfra(options: {
  profile: 'dev' | 'test';
  dataDir: string;
  log?: (m: string) => void;
  toxiproxy?: boolean;
  /** Test profile: ports at this offset instead of TEST_PORT_OFFSET's. */
  offset?: number;
}): Promise<{
  settings: Record<string, string>;
  servers: Record<string, LocalServer>;
  stop(): Promise<void>;
  toxiproxy: unknown;
}>;
