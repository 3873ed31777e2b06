import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAULT_WINDOWS_FILE, checkLogs, unnamedError } from './log-check.js';

describe('unnamedError: an ERROR line names its error and the operation that failed', () => {
  it('passes what the kit writes: an err with type and message, the operation in the message', () => {
    const line = {
      level: 50,
      operation: 'GET /things/:id',
      err: { type: 'TypeError', message: 'boom', stack: 'TypeError: boom\n    at x' },
      msg: 'GET /things/:id failed: TypeError: boom',
    };
    expect(unnamedError(line)).toBeNull();
    expect(unnamedError({ level: 50, error: 'no such topic', msg: 'outbox document stuck: no such topic' })).toBeNull();
    expect(unnamedError({ level: 50, reason: 'exit code 1', msg: 'auth exited unexpectedly (code 1)' })).toBeNull();
    expect(
      unnamedError({
        level: 60,
        err: { type: 'ConfigError', message: 'PORT: bad' },
        msg: 'start-up failed: PORT: bad',
      }),
    ).toBeNull();
  });

  it('refuses a line with no error, or an err without its type or message', () => {
    expect(unnamedError({ level: 50, reqId: 'r1', msg: 'request failed' } as never)).toMatch(/names no error/);
    expect(unnamedError({ level: 50, msg: 'shutdown took too long; exiting' })).toMatch(/names no error/);
    expect(unnamedError({ level: 50, err: { message: 'boom' }, msg: 'GET /x failed: boom' })).toMatch(/names no error/);
    expect(unnamedError({ level: 50, err: 'boom', msg: 'GET /x failed: boom' })).toMatch(/names no error/);
    expect(unnamedError({ level: 50, error: {}, msg: 'Error when calling eachBatch' })).toMatch(/names no error/);
  });

  it('refuses a message that is only the error itself or says nothing about what was done', () => {
    const err = { type: 'Error', message: 'listen EADDRINUSE: address already in use 127.0.0.1:9464' };
    expect(unnamedError({ level: 60, err, msg: err.message })).toMatch(/names no operation/);
    expect(unnamedError({ level: 50, err, msg: `Error: ${err.message}` })).toMatch(/names no operation/);
    expect(unnamedError({ level: 50, err, msg: 'request failed' })).toMatch(/names no operation/);
    expect(unnamedError({ level: 50, err, msg: 'An unexpected error occurred' })).toMatch(/names no operation/);
    expect(unnamedError({ level: 50, err })).toMatch(/names no operation/);
  });
});

describe('checkLogs', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every ERROR line that names no error, inside a fault window too; a named one there passes', () => {
    dir = mkdtempSync(join(tmpdir(), 'log-check-test-'));
    const logs = join(dir, 'logs');
    mkdirSync(logs);
    writeFileSync(join(dir, FAULT_WINDOWS_FILE), `${JSON.stringify({ what: 'outage', from: 1000, to: 2000 })}\n`);
    const lines = [
      { level: 30, time: 1500, msg: 'request completed' },
      {
        level: 50,
        time: 1500,
        err: { type: 'MongoNetworkError', message: 'closed' },
        msg: 'POST /r failed: MongoNetworkError: closed',
      },
      { level: 50, time: 1600, reqId: 'r1', msg: 'request failed' },
    ];
    writeFileSync(join(logs, 'requests.log'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const problems = checkLogs(logs, dir, []);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^requests\.log:3 ERROR line names no error .*"request failed"/);
  });

  it('reads the level as the processes write it, a word, as well as a number', () => {
    dir = mkdtempSync(join(tmpdir(), 'log-check-test-'));
    const logs = join(dir, 'logs');
    mkdirSync(logs);
    const lines = [
      { level: 'info', time: 1500, msg: 'request completed' },
      { level: 'warn', time: 1500, msg: 'slow' },
      { level: 'error', time: 1600, reqId: 'r1', msg: 'request failed' },
      { level: 'fatal', time: 1700, msg: 'start-up failed' },
    ];
    writeFileSync(join(logs, 'gateway.log'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const problems = checkLogs(logs, dir, []);
    // Both ERROR and FATAL lines name no error, outside any fault window: four problems, none for info or warn.
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'gateway.log:3',
      'gateway.log:3',
      'gateway.log:4',
      'gateway.log:4',
    ]);
  });
});
