import { type Logger, type LoggerOptions, pino } from 'pino';

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

export function createLogger(settings: LoggerSettings): Logger {
  if (settings.format === 'pretty') return pino(loggerOptions(settings));
  // Written in the background: a synchronous write per line to a slow pipe stalled every request
  // (the gateway answered a fifth fewer requests at info level). Lines still waiting when the
  // process exits are flushed synchronously by pino's exit hook.
  return pino(loggerOptions(settings), pino.destination({ dest: 1, sync: false }));
}
