import type { ServiceApp } from './app.js';
import { ConfigError, METRICS_PORT_DEFAULTS } from './config.js';
import { namedError } from './errors.js';
import { type Logger, createLogger } from './logger.js';
import { enableMetrics } from './metrics/registry.js';
import { startMetricsServer } from './metrics/server.js';
import { DependencyStartupError } from './startup.js';
import { startTracing } from './tracing/export.js';

/** How long a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

export interface ListenOptions {
  host: string;
  port: number;
  /** Extra work to undo on shutdown after the HTTP server closed (consumers, relays). */
  onShutdown?: () => Promise<void>;
}

/**
 * Listens and shuts down gracefully on SIGINT/SIGTERM: stop taking requests, let in-flight
 * ones finish, close connections in reverse order of opening (Fastify onClose hooks), exit.
 */
export async function listen(app: ServiceApp, logger: Logger, options: ListenOptions): Promise<void> {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // Which step never finished is what an operator needs from a forced exit.
    let step = 'closing the app (in-flight requests, then its onClose hooks: workers, connections)';
    const force = setTimeout(() => {
      const reason = `still ${step} after ${SHUTDOWN_DEADLINE_MS} ms`;
      logger.error({ reason, step, deadlineMs: SHUTDOWN_DEADLINE_MS }, `shutdown timed out: ${reason}; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      await app.close();
      step = 'running the onShutdown work';
      await options.onShutdown?.();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, `shutdown failed: ${namedError(err)}`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: options.host, port: options.port });
}

/**
 * Logs a start-up failure and exits non-zero. Config errors name the variable; a dependency that
 * does not answer names itself and its setting (DependencyStartupError).
 */
export function exitOnStartupError(logger: Pick<Logger, 'fatal'>, err: unknown): never {
  const said = err instanceof ConfigError || err instanceof DependencyStartupError ? err.message : namedError(err);
  logger.fatal({ err }, `start-up failed: ${said}`);
  process.exit(1);
}

/**
 * The whole of a service's server.ts: load settings, build the app, listen, shut down on
 * signals. `build` opens what the service needs and returns the app.
 */
export async function runService<
  C extends {
    HOST: string;
    PORT: number;
    LOG_LEVEL: string;
    LOG_FORMAT: 'json' | 'pretty';
    METRICS_PORT?: number;
    OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  },
>(name: string, load: () => C, build: (config: C, logger: Logger) => Promise<ServiceApp>): Promise<void> {
  let logger: Logger = createLogger({ name, level: 'info', format: 'json' });
  try {
    const config = load();
    logger = createLogger({ name, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
    // Before build: the connections and the app instrument themselves only when metrics are on.
    const metricsPort = config.METRICS_PORT ?? METRICS_PORT_DEFAULTS[name] ?? 0;
    if (metricsPort !== 0) {
      enableMetrics(name);
      await startMetricsServer({ host: config.HOST, port: metricsPort, logger });
    }
    if (config.OTEL_EXPORTER_OTLP_ENDPOINT) startTracing(name, { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
    const app = await build(config, logger);
    await listen(app, logger, { host: config.HOST, port: config.PORT });
  } catch (err) {
    exitOnStartupError(logger, err);
  }
}
