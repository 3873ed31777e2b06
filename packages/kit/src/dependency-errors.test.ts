import { MongoNetworkError, MongoOperationTimeoutError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { unavailableDependency } from './dependency-errors.js';

describe('unavailableDependency', () => {
  it('names MongoDB for the driver errors of a server that hangs or is gone', () => {
    expect(unavailableDependency(new MongoOperationTimeoutError('Timed out during socket read (1500ms)'))).toBe(
      'mongo',
    );
    const selection = Object.assign(new Error('Server selection timed out after 5000 ms'), {
      name: 'MongoServerSelectionError',
    });
    expect(unavailableDependency(selection)).toBe('mongo');
    expect(unavailableDependency(new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed'))).toBe('mongo');
  });

  it('looks inside a bulk write that a timeout failed, but not one a duplicate key failed', () => {
    // What the driver throws when a bulkWrite runs out of its timeoutMS.
    const timedOut = Object.assign(new Error('Server roundtrip time is greater than the time remaining'), {
      name: 'MongoBulkWriteError',
      errorResponse: new MongoOperationTimeoutError('Server roundtrip time is greater than the time remaining'),
    });
    expect(unavailableDependency(timedOut)).toBe('mongo');
    const refused = Object.assign(new Error('E11000 duplicate key error'), {
      name: 'MongoBulkWriteError',
      code: 11000,
      errorResponse: { code: 11000, errmsg: 'E11000 duplicate key error' },
    });
    expect(unavailableDependency(refused)).toBeNull();
  });

  it('names the network for what nodemailer rejects a send with when SMTP hangs or is gone', () => {
    const lost = Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' });
    const greeting = Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' });
    const socket = Object.assign(new Error('read ECONNRESET'), { code: 'ESOCKET' });
    for (const err of [lost, greeting, socket]) expect(unavailableDependency(err)).toBe('network');
    // A refusal of this message (a bad recipient) is not an outage.
    expect(unavailableDependency(Object.assign(new Error('Recipient rejected'), { code: 'EENVELOPE' }))).toBeNull();
  });

  it('names Redis for what ioredis rejects a command with when Redis hangs or is gone', () => {
    expect(unavailableDependency(new Error('Command timed out'))).toBe('redis');
    expect(unavailableDependency(new Error('Connection is closed.'))).toBe('redis');
    const maxRetries = Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
      name: 'MaxRetriesPerRequestError',
    });
    expect(unavailableDependency(maxRetries)).toBe('redis');
  });

  it('names the network for socket errors and timeouts, also behind a cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' });
    expect(unavailableDependency(refused)).toBe('network');
    expect(unavailableDependency(new Error('upload failed', { cause: refused }))).toBe('network');
    expect(unavailableDependency(AbortSignal.timeout(0).reason ?? new DOMException('x', 'TimeoutError'))).toBe(
      'network',
    );
  });

  it('leaves bugs and refusals alone', () => {
    expect(unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeNull();
    expect(unavailableDependency(Object.assign(new Error('E11000 duplicate key'), { code: 11000 }))).toBeNull();
    expect(unavailableDependency('a string')).toBeNull();
  });
});
