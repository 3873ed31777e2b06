import { type Logger, type LoggerOptions, pino, destination as pinoDestination, symbols } from 'pino';

export type { Logger } from 'pino';

export interface LoggerSettings {
  name: string;
  level: string;
  format: 'json' | 'pretty';
}

/** Keys whose values must never reach a log line, wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'token',
  '*.token',
  'verifyUrl',
  '*.verifyUrl',
  'resetUrl',
  '*.resetUrl',
  'req.headers.authorization',
  'req.headers["x-internal-secret"]',
  'req.headers["x-webhook-key"]',
  'headers.authorization',
];

/** A URL as it may be logged: the path only. Query strings carry secrets (`/reset-password?token=…`). */
export function loggablePath(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer without the query string (it otherwise logs `req.url` whole). */
function serializeRequest(req: RequestLike) {
  return {
    method: req.method,
    url: loggablePath(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export function loggerOptions(settings: LoggerSettings): LoggerOptions {
  return {
    name: settings.name,
    level: settings.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    ...(settings.format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true },
          },
        }
      : {}),
  };
}

/** How long a log line may wait to be written with others. */
const FLUSH_MS = 200;

export function createLogger(settings: LoggerSettings): Logger {
  if (settings.format === 'pretty') return pino(loggerOptions(settings));
  // Written in the background, in batches: a write per line cost the gateway about a third of its
  // throughput at info level. A line waits at most FLUSH_MS; lines still waiting when the process
  // exits are flushed synchronously by pino's exit hook.
  const destination = pinoDestination({ dest: 1, sync: false, minLength: 8 * 1024 });
  const pending = destination as unknown as { _len: number; destroyed: boolean };
  setInterval(() => {
    // Not when idle: an empty flush is still a write.
    if (pending._len > 0 && !pending.destroyed) destination.flush();
  }, FLUSH_MS).unref();
  return pino(loggerOptions(settings), destination);
}

interface AccessFields {
  method: string;
  path: string;
  remoteAddress: string;
  statusCode: number;
  responseTimeMs: number;
}

/**
 * Writes the one line per answered request, as `log.info({ req, statusCode, responseTime },
 * 'request completed')` would, but serialized by hand: these lines are most of what a service
 * logs, and pino's redaction and serializers (nothing here to redact: the path has no query, no
 * header is logged) cost the gateway about a tenth of its throughput.
 */
/** `log` is a request's pino logger (Fastify types it more loosely). */
export function logAccess(requestLog: { level: string }, fields: AccessFields, requestId?: string): void {
  const log = requestLog as Logger;
  if (!log.isLevelEnabled('info')) return;
  // A request's logger names its id among its bindings; a line written without one names it here.
  const bound = (log as unknown as Record<symbol, string>)[symbols.chindingsSym] ?? '';
  const chindings = requestId === undefined ? bound : `${bound},"reqId":${JSON.stringify(requestId)}`;
  const stream = (log as unknown as Record<symbol, { write(line: string): unknown }>)[symbols.streamSym];
  if (!stream) return;
  stream.write(
    `{"level":30,"time":${Date.now()}${chindings},"req":{"method":${JSON.stringify(fields.method)},"url":${JSON.stringify(fields.path)},"remoteAddress":${JSON.stringify(fields.remoteAddress)}},"statusCode":${fields.statusCode},"responseTime":${fields.responseTimeMs},"msg":"request completed"}\n`,
  );
}
