import type { LeadReceived } from '@homereport/contracts';
import { type BatchingEventHandler, type EventEnvelope, MAX_EVENTS_PER_CALL } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { inMemoryMail } from '../domain/in-memory-mail.js';
import { LEADS_PER_DIGEST, leadDigestEmail, leadNotificationHandlers } from './lead-handlers.js';

const brand = { publicUrl: 'https://hr.example/', supportEmail: 'support@hr.example' };

let serial = 0;
function lead(overrides: Partial<LeadReceived> = {}): LeadReceived {
  serial += 1;
  return {
    id: `id-${serial}`,
    lead_id: `platform-${serial}`,
    key_name: 'Google spring',
    first_name: 'Lead',
    last_name: `Number${serial}`,
    email: `lead${serial}@example.test`,
    phone: `+1 555-01${String(serial).padStart(2, '0')}`,
    campaign_id: `campaign-${serial}`,
    ad_group_id: null,
    form_id: null,
    is_test: false,
    created_at: `2026-03-01T10:00:${String(serial % 60).padStart(2, '0')}.000Z`,
    ...overrides,
  };
}

const envelope = (data: unknown, id = `event-${++serial}`): EventEnvelope =>
  ({ id, type: 'lead-received', occurredAt: '', source: 'leads', correlationId: 'c', data }) as EventEnvelope;

function fakes(options: { includeTestLeads?: boolean; failSend?: number } = {}) {
  const { mailer, sent, effects, delivered, records } = inMemoryMail((_mail, attempt) => options.failSend === attempt);
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const handler = leadNotificationHandlers({
    mailer,
    sent,
    brand,
    staffEmail: 'staff@hr.example',
    leadAlerts: { includeTestLeads: options.includeTestLeads ?? false },
  })['lead-received'] as BatchingEventHandler;
  const log = {
    info: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
  } as never;
  return {
    delivered,
    records,
    lines,
    // The same effects on every call: as the kit's claims, across retries and redeliveries.
    batch: (events: EventEnvelope[]) => handler.batch(events, log, effects),
    one: (event: EventEnvelope) => handler(event, log, effects),
  };
}

describe('lead alerts', () => {
  it('one lead alone gets the single email, Reply-To the lead', async () => {
    const { delivered, records, one } = fakes();
    const event = envelope(lead({ first_name: 'Dana', last_name: 'Smith', email: 'dana@example.test' }));
    await one(event);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.subject).toBe('New lead: Dana Smith');
    expect(delivered[0]?.to.address).toBe('staff@hr.example');
    expect(delivered[0]?.replyTo).toEqual({ address: 'dana@example.test' });
    expect(records).toEqual([
      expect.objectContaining({
        eventId: event.id,
        kind: 'lead-alert',
        to: 'staff@hr.example',
        smtpMessageId: '<1@test>',
      }),
    ]);
  });

  it('a batch with one lead to send is the single email too', async () => {
    const { delivered, batch } = fakes();
    await batch([envelope(lead({ is_test: true })), envelope(lead({ first_name: 'Lee', last_name: 'Roe' }))]);
    expect(delivered.map((m) => m.subject)).toEqual(['New lead: Lee Roe']);
    expect(delivered[0]?.replyTo).toBeDefined();
  });

  it('three leads together are one digest to staff, without Reply-To, naming each with its fields', async () => {
    const { delivered, records, lines, batch } = fakes();
    const leads = [
      lead({ first_name: 'Dana', last_name: 'Smith', phone: null }),
      lead({ first_name: 'Lee', last_name: 'Roe', key_name: 'Meta fall' }),
      lead({ first_name: 'Kim', last_name: 'Park', campaign_id: null }),
    ];
    const events = leads.map((l) => envelope(l));
    await batch(events);

    expect(delivered).toHaveLength(1);
    const [mail] = delivered;
    expect(mail?.subject).toBe('3 new leads: Dana Smith, Lee Roe and 1 more');
    expect(mail?.to.address).toBe('staff@hr.example');
    expect(mail?.replyTo).toBeUndefined();
    for (const part of [mail?.text, mail?.html]) {
      for (const l of leads) {
        for (const value of [`${l.first_name} ${l.last_name}`, l.lead_id, l.id, l.created_at, l.key_name]) {
          expect(part).toContain(value);
        }
        if (l.email) expect(part).toContain(l.email);
        if (l.phone) expect(part).toContain(l.phone);
        if (l.campaign_id) expect(part).toContain(l.campaign_id);
      }
      expect(part).toContain('not given');
      expect(part?.split('Open the leads')).toHaveLength(2);
      expect(part).toContain('https://hr.example/admin');
    }
    expect(mail?.text).toContain('Name: Kim Park\nEmail: ');
    expect(records.map((r) => [r.eventId, r.kind, r.smtpMessageId])).toEqual(
      events.map((e) => [e.id, 'lead-alert', '<1@test>']),
    );
    expect(lines.filter((l) => l.message === 'email sent').map((l) => l.fields)).toEqual([
      { kind: 'lead-alert', sent: true, leads: 3 },
    ]);
  });

  it('escapes lead names in the html and keeps the subject one bounded line', () => {
    const evil = lead({ first_name: '<b>&"', last_name: `Smith\r\nBcc: x@evil.test ${'y'.repeat(300)}` });
    const email = leadDigestEmail(
      [evil, ...Array.from({ length: LEADS_PER_DIGEST - 1 }, () => lead({ first_name: 'z'.repeat(200) }))],
      brand,
    );
    expect(email.html).not.toContain('<b>&"');
    expect(email.html).toContain('&lt;b&gt;&amp;&quot;');
    expect(email.text).toContain('<b>&"');
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject.length).toBeLessThanOrEqual(150);
    expect(email.subject).toMatch(/^50 new leads: <b>&" Smith Bcc: .*…, z+… and 48 more$/);
  });

  it('marks a digest holding test leads when they are emailed', async () => {
    const { delivered, batch } = fakes({ includeTestLeads: true });
    await batch([envelope(lead({ is_test: true })), envelope(lead())]);
    expect(delivered[0]?.subject).toMatch(/^\[Test\] 2 new leads: /);
    expect(delivered[0]?.text).toContain('2 new leads came in (1 of them test leads)');
    expect(delivered[0]?.text).toContain('Test lead: yes');
  });

  it(`120 leads are three emails of ${LEADS_PER_DIGEST}, ${LEADS_PER_DIGEST} and 20, each lead recorded once`, async () => {
    expect(MAX_EVENTS_PER_CALL).toBeGreaterThanOrEqual(120);
    const { delivered, records, batch } = fakes();
    const events = Array.from({ length: 120 }, () => envelope(lead()));
    await batch(events);
    expect(delivered.map((m) => m.subject.split(' ')[0])).toEqual(['50', '50', '20']);
    expect(records.map((r) => r.eventId)).toEqual(events.map((e) => e.id));
    expect(new Set(records.map((r) => r.smtpMessageId))).toEqual(new Set(['<1@test>', '<2@test>', '<3@test>']));
  });

  it('skips leads whose alert was sent already, and sends nothing when all were', async () => {
    const { delivered, batch, lines } = fakes();
    const events = Array.from({ length: 4 }, () => envelope(lead()));
    await batch(events.slice(0, 2));
    await batch(events);
    expect(delivered.map((m) => m.subject.split(':')[0])).toEqual(['2 new leads', '2 new leads']);
    expect(delivered[1]?.text).toContain((events[2]?.data as LeadReceived).lead_id);
    expect(delivered[1]?.text).not.toContain((events[0]?.data as LeadReceived).lead_id);
    await batch(events);
    expect(delivered).toHaveLength(2);
    expect(lines.filter((l) => l.message === 'email already sent').map((l) => l.fields.leads)).toEqual([2, 4]);
  });

  it('one event delivered twice within a call is listed once', async () => {
    const { delivered, batch } = fakes();
    const twice = envelope(lead({ first_name: 'Once' }));
    await batch([twice, twice, envelope(lead())]);
    expect(delivered[0]?.subject).toMatch(/^2 new leads: Once /);
  });

  it('test leads send nothing unless configured', async () => {
    const off = fakes();
    await off.batch([envelope(lead({ is_test: true })), envelope(lead({ is_test: true }))]);
    await off.one(envelope(lead({ is_test: true })));
    expect(off.delivered).toEqual([]);
    expect(off.records).toEqual([]);
    expect(off.lines.map((l) => l.fields.leads)).toEqual([2, 1]);

    const on = fakes({ includeTestLeads: true });
    await on.one(envelope(lead({ is_test: true, first_name: 'Tess', last_name: 'Tee' })));
    expect(on.delivered.map((m) => m.subject)).toEqual(['[Test] New lead: Tess Tee']);
  });

  it('an invalid event fails the whole call before anything is sent', async () => {
    const { delivered, batch } = fakes();
    await expect(batch([envelope(lead()), envelope({ ...lead(), is_test: 'no' }), envelope(lead())])).rejects.toThrow(
      /lead-received data breaks its contract at \/is_test/,
    );
    expect(delivered).toEqual([]);
  });

  it('a failed send throws; the emails sent before it stay recorded, so a retry sends only the rest', async () => {
    const { delivered, records, batch } = fakes({ failSend: 2 });
    const events = Array.from({ length: 60 }, () => envelope(lead()));
    await expect(batch(events)).rejects.toThrow('SMTP said no');
    expect(records).toHaveLength(LEADS_PER_DIGEST);
    await batch(events);
    expect(delivered.map((m) => m.subject.split(' ')[0])).toEqual(['50', '10']);
    expect(records).toHaveLength(60);
  });
});
