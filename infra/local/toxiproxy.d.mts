export const PROXIED: string[];
export function toxiproxyPorts(
  profile: 'dev' | 'test',
): Record<'api' | 'mongo' | 'redis' | 'kafka' | 's3' | 'smtp', number>;
/** A small client of toxiproxy's HTTP API. */
export class Toxiproxy {
  constructor(apiPort: number);
  createProxy(name: string, listenPort: number, upstreamPort: number): Promise<unknown>;
  /** Unreachable: connections closed, new ones refused. */
  disable(name: string): Promise<unknown>;
  enable(name: string): Promise<unknown>;
  /** Hung: connections stay open, no byte passes either way. */
  hang(name: string): Promise<unknown>;
  /** Every answer delayed by `ms`. */
  slow(name: string, ms: number): Promise<unknown>;
  /** Every proxy enabled, every toxic removed. */
  reset(): Promise<unknown>;
}
