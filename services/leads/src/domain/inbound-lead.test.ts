import { describe, expect, it } from 'vitest';
import { googleLead, googleLeadRead } from '../../test/support/payloads.js';
import { keyFromBody, readInboundLead, splitFullName } from './inbound-lead.js';

// Google's lead form with an id of more digits than a JavaScript number holds, sent as test data.
const google = googleLead('secret', {
  lead_id: 'TeSter-123-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  campaign_id: '12345678901234567890',
  is_test: true,
  gcl_id: 'gclid-1',
});

describe('readInboundLead', () => {
  it.each([
    [
      'Google’s lead form: FULL_NAME into first and last name, ids as strings, test flag',
      google,
      {
        ...googleLeadRead,
        lead_id: 'TeSter-123-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
        campaign_id: '12345678901234567890',
        gcl_id: 'gclid-1',
        is_test: true,
      },
    ],
    [
      'FIRST_NAME/LAST_NAME columns first, the work email and phone when the personal ones are missing',
      {
        lead_id: 7,
        user_column_data: [
          { column_id: 'FIRST_NAME', string_value: 'Ann' },
          { column_id: 'LAST_NAME', string_value: 'Lee' },
          { column_id: 'WORK_EMAIL', string_value: 'ann@work.example' },
          { column_id: 'WORK_PHONE', string_value: '555-0100' },
        ],
      },
      {
        lead_id: '7',
        first_name: 'Ann',
        last_name: 'Lee',
        email: 'ann@work.example',
        phone: '555-0100',
        is_test: false,
      },
    ],
    [
      'the generic shape',
      {
        lead_id: ' g-1 ',
        first_name: 'Jo',
        last_name: 'Doe',
        email: 'jo@example.com',
        campaign_id: 'c',
        ad_group_id: 'a',
      },
      { lead_id: 'g-1', first_name: 'Jo', campaign_id: 'c', ad_group_id: 'a', phone: null },
    ],
  ])('reads %s', (_what, body, lead) => {
    const read = readInboundLead(body);
    if (!read.ok) throw new Error(`refused: ${read.message}`);
    expect(read.lead).toMatchObject(lead);
  });

  it('keeps unknown fields in the raw copy but never the key', () => {
    const read = readInboundLead({ ...google, Google_key: 'other' });
    if (!read.ok) throw new Error('refused');
    const raw = JSON.parse(read.lead.raw);
    expect(raw.creative_id).toBe(50000000000);
    expect(raw.user_column_data[3].string_value).toBe('94043');
    expect(raw).not.toHaveProperty('google_key');
    expect(raw).not.toHaveProperty('Google_key');
  });

  it('accepts a phone without an email', () => {
    expect(readInboundLead({ lead_id: 'x', phone: '555' }).ok).toBe(true);
  });

  it.each([
    [{ email: 'a@b.c' }, /missing lead_id\./],
    [{ lead_id: 'x', first_name: 'A' }, /missing an email or a phone number/],
    [{ first_name: 'A' }, /missing lead_id and an email or a phone number/],
    [{ lead_id: '   ', email: 'a@b.c' }, /missing lead_id/],
    [{ lead_id: 'x'.repeat(201), email: 'a@b.c' }, /at most 200/],
    [[1, 2], /JSON object/],
  ])('refuses %j naming what is missing', (body, message) => {
    const read = readInboundLead(body);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(message);
  });
});

describe('keyFromBody', () => {
  it('reads google_key, then Google_key', () => {
    expect(keyFromBody({ google_key: 'a' })).toBe('a');
    expect(keyFromBody({ Google_key: 'b' })).toBe('b');
    expect(keyFromBody({})).toBeUndefined();
    expect(keyFromBody('x')).toBeUndefined();
  });
});

describe('splitFullName', () => {
  it('splits on the first space and keeps a single word as the first name', () => {
    expect(splitFullName('  Cher ')).toEqual(['Cher', '']);
    expect(splitFullName('Jean-Luc  de la Mer')).toEqual(['Jean-Luc', 'de la Mer']);
  });
});
