import { effectsInMemory } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import type { OutgoingMail } from '../domain/ports.js';
import { reportReadyEmail, requestNotificationHandlers, requestStaffEmail } from './request-handlers.js';

const brand = { publicUrl: 'https://homereport.example/', supportEmail: 'support@homereport.example' };
const request = {
  id: 'req1',
  address: '<b>12 Main St</b>, Springfield',
  url: null,
  notes: 'Look at "the roof"',
  status: 'requested' as const,
  created_at: '2026-01-01T00:00:00.000Z',
};

function fakeDeps() {
  const sent: OutgoingMail[] = [];
  const recorded: string[] = [];
  return {
    sent,
    recorded,
    // As the kit's claims: the same effects across deliveries of an event.
    effects: effectsInMemory(),
    deps: {
      mailer: {
        send: async (mail: OutgoingMail) => {
          sent.push(mail);
          return { messageId: String(sent.length) };
        },
        close: () => {},
      },
      sent: {
        record: async (s: { eventId: string; kind: string }) => void recorded.push(`${s.eventId}:${s.kind}`),
        recordMany: async (rows: { eventId: string; kind: string }[]) =>
          void recorded.push(...rows.map((s) => `${s.eventId}:${s.kind}`)),
      },
      brand,
      staffEmail: 'staff@homereport.example',
      supportEmail: brand.supportEmail,
    },
  };
}

const log = { info: () => {} } as never;
const event = (type: string, data: unknown, id = 'e1') =>
  ({ id, type, occurredAt: '', source: 'requests', correlationId: 'c', data }) as never;

describe('request emails', () => {
  it('escape what the requester typed and link the admin page', () => {
    const email = requestStaffEmail({ request, requester: null }, brand);
    expect(email.html).not.toContain('<b>12 Main St</b>');
    expect(email.html).toContain('&lt;b&gt;12 Main St&lt;/b&gt;');
    expect(email.text).toContain('https://homereport.example/admin/request/req1');
    expect(email.text).toContain('Anonymous visitor');
  });

  it('link the report page in the report-ready email', () => {
    const email = reportReadyEmail({ request, requester: null, completed_at: request.created_at }, brand);
    expect(email.text).toContain('https://homereport.example/report/req1');
  });

  it('send the staff alert always, the receipt only to a signed-in requester, each once per event', async () => {
    const { deps, sent, effects } = fakeDeps();
    const handlers = requestNotificationHandlers(deps);
    await handlers['request-submitted']?.(event('request-submitted', { request, requester: null }), log, effects);
    expect(sent.map((m) => m.to.address)).toEqual(['staff@homereport.example']);
    const requester = { userId: 'u1', email: 'buyer@example.test' };
    await handlers['request-submitted']?.(event('request-submitted', { request, requester }, 'e2'), log, effects);
    await handlers['request-submitted']?.(event('request-submitted', { request, requester }, 'e2'), log, effects);
    expect(sent.map((m) => m.to.address)).toEqual([
      'staff@homereport.example',
      'staff@homereport.example',
      'buyer@example.test',
    ]);
    expect(sent[1]?.replyTo?.address).toBe('buyer@example.test');
  });

  it('email report-ready to the requester only', async () => {
    const { deps, sent, effects } = fakeDeps();
    const handlers = requestNotificationHandlers(deps);
    const covered = { request, completed_at: request.created_at };
    await handlers['request-covered']?.(event('request-covered', { ...covered, requester: null }), log, effects);
    expect(sent).toHaveLength(0);
    const requester = { userId: 'u1', email: 'buyer@example.test' };
    await handlers['request-covered']?.(event('request-covered', { ...covered, requester }, 'e3'), log, effects);
    expect(sent.map((m) => m.to.address)).toEqual(['buyer@example.test']);
  });

  it('refuse an event that breaks its contract (it goes to the dead-letter topic)', async () => {
    const { deps, effects } = fakeDeps();
    const handlers = requestNotificationHandlers(deps);
    await expect(
      handlers['request-covered']?.(event('request-covered', { request: {} }), log, effects),
    ).rejects.toThrow(/breaks its contract/);
  });

  it('send the staff one digest for requests that arrive together, and each signed-in requester a receipt', async () => {
    const { deps, sent, effects } = fakeDeps();
    const handlers = requestNotificationHandlers(deps);
    const batch = (
      handlers['request-submitted'] as unknown as { batch: (e: never[], l: never, f: typeof effects) => Promise<void> }
    ).batch;
    const requester = { userId: 'u1', email: 'buyer@example.test' };
    const events = Array.from({ length: 3 }, (_, i) =>
      event(
        'request-submitted',
        {
          request: { ...request, id: `r${i}`, address: `${i} Elm St, Austin, TX` },
          requester: i === 1 ? requester : null,
        },
        `d${i}`,
      ),
    );
    await batch(events, log, effects);
    expect(sent.map((m) => m.to.address)).toEqual(['staff@homereport.example', 'buyer@example.test']);
    expect(sent[0]?.subject).toBe('3 new coverage requests: 0 Elm St, Austin, TX, 1 Elm St, Austin, TX and 1 more');
    expect(sent[0]?.replyTo).toBeUndefined();
    for (const i of [0, 1, 2]) expect(sent[0]?.text).toContain(`/admin/request/r${i}`);
    // Delivered again: nothing more.
    await batch(events, log, effects);
    expect(sent).toHaveLength(2);
  });
});
