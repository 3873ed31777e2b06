import { describe, expect, it } from 'vitest';
import { receiptDigestEmail, receiptWindow } from './receipt-digest.js';

const brand = { publicUrl: 'https://homereport.example/', supportEmail: 'support@homereport.example' };

describe('receipt digests', () => {
  it("put a receipt in its account's clock hour, due after the hour and a grace for late consumers", () => {
    const early = receiptWindow('u1', new Date('2026-05-01T10:00:00.000Z'));
    const late = receiptWindow('u1', new Date('2026-05-01T10:59:59.999Z'));
    expect(late).toEqual(early);
    expect(early.id).toBe('u1:2026-05-01T10');
    expect(early.dueAt.toISOString()).toBe('2026-05-01T11:02:00.000Z');
    expect(receiptWindow('u1', new Date('2026-05-01T11:00:00.000Z')).id).toBe('u1:2026-05-01T11');
    expect(receiptWindow('u2', new Date('2026-05-01T10:30:00.000Z')).id).not.toBe(early.id);
  });

  it('list the folded requests escaped, count those not listed, and link the dashboard', () => {
    const email = receiptDigestEmail(
      {
        id: 'u1:2026-05-01T10',
        to: 'buyer@example.test',
        hour: new Date('2026-05-01T10:00:00.000Z'),
        folded: [
          { eventId: 'e1', requestId: 'r1', address: '<b>1 Main St</b>' },
          { eventId: 'e2', requestId: 'r2', address: '2 Main St' },
        ],
        foldedCount: 5,
        attempts: 0,
      },
      brand,
    );
    expect(email.subject).toBe('We received 5 more coverage requests from you');
    expect(email.html).not.toContain('<b>1 Main St</b>');
    expect(email.html).toContain('&lt;b&gt;1 Main St&lt;/b&gt;');
    expect(email.text).toContain('2 Main St');
    expect(email.text).toContain('And 3 more');
    expect(email.text).toContain('Between 10:00 UTC and 11:00 UTC');
    expect(email.text).toContain('https://homereport.example/dashboard');
  });
});
