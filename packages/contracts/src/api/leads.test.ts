import { describe, expect, it } from 'vitest';
import { LeadReceived } from '../index.js';
import { ASSIGNED_LEAD_FIELDS, LEAD_FIELDS, POSTED_LEAD_FIELDS } from './leads.js';

describe('the lead fields, declared once', () => {
  it('split into what a platform posts and what the service assigns, in the declared order', () => {
    expect(LEAD_FIELDS).toHaveLength(16);
    expect(POSTED_LEAD_FIELDS).toEqual([
      'lead_id',
      'first_name',
      'last_name',
      'email',
      'phone',
      'campaign_id',
      'ad_group_id',
      'form_id',
      'gcl_id',
      'is_test',
    ]);
    expect([...POSTED_LEAD_FIELDS, ...ASSIGNED_LEAD_FIELDS].sort()).toEqual([...LEAD_FIELDS].sort());
  });

  it('give the lead-received event the lead without its status and gcl_id, as it always carried', () => {
    expect(Object.keys(LeadReceived.properties)).toEqual(
      LEAD_FIELDS.filter((f) => !['gcl_id', 'lead_status', 'status_changed_at', 'status_changed_by'].includes(f)),
    );
    expect(LeadReceived.required).toHaveLength(12);
  });
});
