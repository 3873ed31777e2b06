import { describe, expect, it } from 'vitest';
import { messageIdFor, transportUrl } from './transport.js';

describe('transportUrl', () => {
  it('adds pooling and short timeouts, keeping host, port and credentials', () => {
    const url = new URL(transportUrl('smtps://user:p%40ss@mail.example:465'));
    expect(url.protocol).toBe('smtps:');
    expect(url.host).toBe('mail.example:465');
    expect(url.username).toBe('user');
    expect(url.password).toBe('p%40ss');
    expect(url.searchParams.get('pool')).toBe('true');
    expect(url.searchParams.get('connectionTimeout')).toBe('10000');
  });

  it("keeps the operator's own settings", () => {
    const url = new URL(transportUrl('smtp://127.0.0.1:1025?pool=false&socketTimeout=5000'));
    expect(url.searchParams.get('pool')).toBe('false');
    expect(url.searchParams.get('socketTimeout')).toBe('5000');
  });
});

describe('messageIdFor', () => {
  it("names a keyed message at the sender's domain, the same every time", () => {
    const from = 'HomeReport <no-reply@homereport.example>';
    expect(messageIdFor('verification.e-1', from)).toBe('<verification.e-1@homereport.example>');
    expect(messageIdFor('verification.e-1', from)).toBe(messageIdFor('verification.e-1', from));
    expect(messageIdFor('verification.e-1', 'no-reply@mail.example')).toBe('<verification.e-1@mail.example>');
  });
});
