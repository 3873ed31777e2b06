import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handshakeChallenge, leadgenNotices, readMetaLead, signatureMatches } from './meta-lead.js';

const SECRET = 'app-secret-for-tests';
const sign = (body: Buffer | string, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('handshakeChallenge', () => {
  const query = { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' };

  it('echoes the challenge when the mode is subscribe and the token matches', () => {
    expect(handshakeChallenge(query, 'verify-me')).toBe('1158201444');
  });

  it.each([
    ['a wrong token', { ...query, 'hub.verify_token': 'verify-mf' }],
    ['a longer token', { ...query, 'hub.verify_token': 'verify-me2' }],
    ['no token', { 'hub.mode': 'subscribe', 'hub.challenge': '1' }],
    ['another mode', { ...query, 'hub.mode': 'unsubscribe' }],
    ['no challenge', { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me' }],
  ])('refuses %s', (_what, q) => {
    expect(handshakeChallenge(q, 'verify-me')).toBeNull();
  });
});

describe('signatureMatches', () => {
  const body = Buffer.from('{"object":"page","entry":[]}');

  it('accepts the HMAC-SHA256 of the exact bytes, in either letter case', () => {
    expect(signatureMatches(SECRET, body, sign(body))).toBe(true);
    expect(signatureMatches(SECRET, body, sign(body).toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
  });

  it('refuses a signature of other bytes (the same JSON spaced differently), another secret, or no signature', () => {
    expect(signatureMatches(SECRET, body, sign('{"object": "page", "entry": []}'))).toBe(false);
    expect(signatureMatches(SECRET, body, sign(body, 'other-secret'))).toBe(false);
    expect(signatureMatches(SECRET, body, undefined)).toBe(false);
    expect(signatureMatches(SECRET, body, '')).toBe(false);
  });

  it('refuses malformed headers: the sha1 form, a short digest, no prefix', () => {
    const hex = sign(body).slice('sha256='.length);
    expect(signatureMatches(SECRET, body, `sha1=${hex}`)).toBe(false);
    expect(signatureMatches(SECRET, body, `sha256=${hex.slice(2)}`)).toBe(false);
    expect(signatureMatches(SECRET, body, hex)).toBe(false);
  });
});

describe('leadgenNotices', () => {
  it('takes each leadgen change once, ids as strings, and passes over other fields', () => {
    const read = leadgenNotices({
      object: 'page',
      entry: [
        {
          id: '1',
          changes: [
            { field: 'leadgen', value: { leadgen_id: '444', form_id: '9' } },
            { field: 'feed', value: {} },
            { field: 'leadgen', value: { leadgen_id: 555 } },
          ],
        },
        { id: '2', changes: [{ field: 'leadgen', value: { leadgen_id: '444' } }] },
        { id: '3' },
      ],
    });
    expect(read).toEqual({
      ok: true,
      notices: [
        { leadgen_id: '444', value: { leadgen_id: '444', form_id: '9' } },
        { leadgen_id: '555', value: { leadgen_id: 555 } },
      ],
    });
  });

  it('names the change whose leadgen_id is missing or not an id', () => {
    expect(leadgenNotices({ object: 'page', entry: [{ changes: [{ field: 'leadgen', value: {} }] }] })).toEqual({
      ok: false,
      field: 'entry[0].changes[0].value.leadgen_id',
    });
    const slashed = { object: 'page', entry: [{}, { changes: [{ field: 'leadgen', value: { leadgen_id: '../x' } }] }] };
    expect(leadgenNotices(slashed)).toEqual({ ok: false, field: 'entry[1].changes[0].value.leadgen_id' });
  });
});

describe('readMetaLead', () => {
  const notice = {
    leadgen_id: '123123',
    value: { leadgen_id: '123123', form_id: '567', adgroup_id: 345, ad_id: '234' },
  };

  it('maps full_name, email and phone_number, and keeps the other answers as extra in the raw copy', () => {
    const read = readMetaLead(notice, {
      id: '123123',
      created_time: '2026-01-02T03:04:05+0000',
      field_data: [
        { name: 'full_name', values: ['Dana Mae Whitfield'] },
        { name: 'email', values: ['dana@example.com'] },
        { name: 'phone_number', values: ['+15555550123'] },
        { name: 'zip_code', values: ['94043'] },
        { name: 'which_homes?', values: ['condo', 'townhouse'] },
      ],
    });
    if (!read.ok) throw new Error(read.message);
    expect(read.lead).toMatchObject({
      lead_id: '123123',
      first_name: 'Dana',
      last_name: 'Mae Whitfield',
      email: 'dana@example.com',
      phone: '+15555550123',
      ad_group_id: '345',
      form_id: '567',
      campaign_id: null,
      is_test: false,
    });
    const raw = JSON.parse(read.lead.raw);
    expect(raw).toMatchObject({ platform: 'meta', ad_id: '234', graph_created_time: '2026-01-02T03:04:05+0000' });
    expect(raw.extra).toEqual({ zip_code: '94043', 'which_homes?': 'condo, townhouse' });
  });

  it('prefers first_name and last_name over full_name, and takes a work email', () => {
    const read = readMetaLead(notice, {
      field_data: [
        { name: 'full_name', values: ['Someone Else'] },
        { name: 'FIRST_NAME', values: [' Ann '] },
        { name: 'last_name', values: ['Lee'] },
        { name: 'work_email', values: ['ann@work.example'] },
      ],
    });
    if (!read.ok) throw new Error(read.message);
    expect(read.lead).toMatchObject({ first_name: 'Ann', last_name: 'Lee', email: 'ann@work.example', phone: null });
  });

  it('refuses a lead with neither an email nor a phone number', () => {
    const read = readMetaLead(notice, { field_data: [{ name: 'full_name', values: ['No Contact'] }] });
    expect(read).toEqual({ ok: false, message: 'The lead is missing an email or a phone number.' });
  });
});
