import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggablePath, loggerOptions } from './logger.js';

describe('request logging', () => {
  it('logs the path of a request without its query string', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino(loggerOptions({ name: 't', level: 'info', format: 'json' }), sink);
    const app = Fastify({ loggerInstance: logger });
    app.get('/reset-password', async () => 'ok');
    await app.inject({ url: '/reset-password?token=s3cr3t-token&x=1' });
    await app.close();
    const text = lines.join('');
    expect(text).toContain('"url":"/reset-password"');
    expect(text).not.toContain('s3cr3t-token');
  });

  it('cuts a query or fragment off a path', () => {
    expect(loggablePath('/a/b?token=1')).toBe('/a/b');
    expect(loggablePath('/a#x?y')).toBe('/a');
    expect(loggablePath('/plain')).toBe('/plain');
  });
});
