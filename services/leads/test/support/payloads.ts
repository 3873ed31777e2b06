import { randomUUID } from 'node:crypto';

// Lead bodies as the sources send them: plain data, for the unit tests beside the code too.

export const uniqueLeadId = (label = 'lead') => `${label}-${randomUUID()}`;

/** A generic-shape lead with unique ids unless given. */
export function genericLead(overrides: Record<string, unknown> = {}) {
  return {
    lead_id: uniqueLeadId(),
    first_name: 'Jamie',
    last_name: 'Rivera',
    email: `${randomUUID().slice(0, 8)}@lead.example`,
    phone: '+1 555-0100',
    campaign_id: 'spring-campaign',
    ad_group_id: 'ad-group-7',
    ...overrides,
  };
}

/** Google Ads' lead form webhook body, as its documentation shows it. */
export function googleLead(key: string, overrides: Record<string, unknown> = {}) {
  return {
    lead_id: uniqueLeadId('google'),
    user_column_data: [
      { column_name: 'Full Name', string_value: 'Morgan Lee Carter', column_id: 'FULL_NAME' },
      { column_name: 'User Phone', string_value: '+16505550123', column_id: 'PHONE_NUMBER' },
      { column_name: 'User Email', string_value: 'morgan@example.com', column_id: 'EMAIL' },
      { column_name: 'Postal Code', string_value: '94043', column_id: 'POSTAL_CODE' },
    ],
    api_version: '1.0',
    form_id: 40000000000,
    campaign_id: 20000000000,
    google_key: key,
    is_test: false,
    gcl_id: 'TeSter-123-gclid',
    adgroup_id: 30000000000,
    creative_id: 50000000000,
    ...overrides,
  };
}

/** What the service reads from googleLead's columns and ids: the full name split, the ids as strings. */
export const googleLeadRead = {
  first_name: 'Morgan',
  last_name: 'Lee Carter',
  email: 'morgan@example.com',
  phone: '+16505550123',
  ad_group_id: '30000000000',
  form_id: '40000000000',
};
