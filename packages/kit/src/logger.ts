import { type Logger, type LoggerOptions, pino, destination as pinoDestination } from 'pino';

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
  /** Given instead of `ip` by callers that log a request they hold no Fastify request for. */
  remoteAddress?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer without the query string (it otherwise logs `req.url` whole). */
function serializeRequest(req: RequestLike) {
  return {
    method: req.method,
    url: loggablePath(req.url),
    host: req.host,
    remoteAddress: req.ip ?? req.remoteAddress,
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
  const destination = pinoDestination({ dest: 1, sync: false, minLength: 8 * 1024, periodicFlush: FLUSH_MS });
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
 * The one line per answered request, as Fastify's own would be, through pino (so redaction,
 * serializers and formatters apply to it like to every other line). `requestId` names the
 * request when the logger is not a request's own (whose bindings already hold its id).
 */
export function logAccess(requestLog: { level: string }, fields: AccessFields, requestId?: string): void {
  // A request's pino logger (Fastify types it more loosely).
  const log = requestLog as Logger;
  if (!log.isLevelEnabled('info')) return;
  log.info(
    {
      ...(requestId === undefined ? {} : { reqId: requestId }),
      req: { method: fields.method, url: fields.path, remoteAddress: fields.remoteAddress },
      statusCode: fields.statusCode,
      responseTime: fields.responseTimeMs,
    },
    'request completed',
  );
}
