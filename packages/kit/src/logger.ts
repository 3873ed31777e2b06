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
  'req.headers.authorization',
  'req.headers["x-internal-secret"]',
  'req.headers["x-webhook-key"]',
  'headers.authorization',
];

export function loggerOptions(settings: LoggerSettings): LoggerOptions {
  return {
    name: settings.name,
    level: settings.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
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
  return pino(loggerOptions(settings));
}
