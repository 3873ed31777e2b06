import { Writable } from 'node:stream';
import { pino } from 'pino';
import { type Logger, loggerOptions } from '../src/logger.js';

export type LogLine = { level: number; msg: string; [field: string]: unknown };

/** A JSON logger as production's, whose lines a test reads back, parsed, as they are written. */
export function capturingLogger(name: string, level = 'info'): { lines: LogLine[]; logger: Logger } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino(loggerOptions({ name, level, format: 'json' }), sink) };
}
