import { describe, expect, it } from 'vitest';
import { canSubmitRequest, emptyRequestForm, toCreateRequestBody } from './requestForm';

describe('request form', () => {
  it('cannot be submitted while the address is blank', () => {
    expect(canSubmitRequest(emptyRequestForm, false)).toBe(false);
    expect(canSubmitRequest({ ...emptyRequestForm, address: '   ' }, false)).toBe(false);
    expect(canSubmitRequest({ ...emptyRequestForm, address: '1 Main St' }, false)).toBe(true);
  });

  it('cannot be submitted again while a submission is in flight', () => {
    expect(canSubmitRequest({ ...emptyRequestForm, address: '1 Main St' }, true)).toBe(false);
  });

  it('sends trimmed values and leaves out blank optional fields', () => {
    expect(toCreateRequestBody({ address: '  1 Main St ', url: ' ', notes: '' })).toEqual({ address: '1 Main St' });
    expect(toCreateRequestBody({ address: '1 Main St', url: ' https://x.test/1 ', notes: ' corner lot ' })).toEqual({
      address: '1 Main St',
      url: 'https://x.test/1',
      notes: 'corner lot',
    });
  });
});
