import { describe, expect, it } from 'vitest';
import { leadsQuery } from './api/leads';
import { LEAD_STATUS_OPTIONS, leadName, leadStatusBadge } from './leadStatus';

describe('leadStatusBadge', () => {
  it('names and colours the five statuses', () => {
    expect(leadStatusBadge('new')).toEqual({ label: 'New', tone: 'blue' });
    expect(leadStatusBadge('qualified')).toEqual({ label: 'Qualified', tone: 'teal' });
    expect(leadStatusBadge('converted')).toEqual({ label: 'Converted', tone: 'green' });
    expect(LEAD_STATUS_OPTIONS.map((o) => o.status)).toEqual(['new', 'contacted', 'qualified', 'converted', 'lost']);
  });

  it('shows an unknown status as it is, on a neutral badge', () => {
    expect(leadStatusBadge('nurturing')).toEqual({ label: 'nurturing', tone: 'grey' });
    expect(leadStatusBadge('')).toEqual({ label: 'Unknown', tone: 'grey' });
    expect(leadStatusBadge('toString')).toEqual({ label: 'toString', tone: 'grey' });
  });
});

describe('leadName', () => {
  it('joins first and last name, with a fallback', () => {
    expect(leadName({ first_name: 'Ann', last_name: '' })).toBe('Ann');
    expect(leadName({ first_name: '', last_name: '' })).toBe('Name not given');
  });
});

describe('leadsQuery', () => {
  it('carries only the filters that are set', () => {
    expect(leadsQuery({})).toBe('');
    expect(leadsQuery({ status: 'qualified', key_name: 'Google Ads / Spring' }, { cursor: null })).toBe(
      '?status=qualified&key_name=Google+Ads+%2F+Spring',
    );
    expect(leadsQuery({}, { cursor: 'abc' })).toBe('?cursor=abc');
  });
});
