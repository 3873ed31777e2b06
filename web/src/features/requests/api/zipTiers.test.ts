import { describe, expect, it } from 'vitest';
import { zipCodeBatches } from './zipTiers';

describe('the tiers of the cards’ ZIP codes', () => {
  it('asks for each ZIP code once, sorted, a hundred a call, and skips cards without one', () => {
    expect(zipCodeBatches(['80202', null, '02116', '80202', undefined, 'abc'])).toEqual([['02116', '80202']]);
    const many = Array.from({ length: 150 }, (_, i) => String(10_000 + i));
    expect(zipCodeBatches(many).map((batch) => batch.length)).toEqual([100, 50]);
    expect(zipCodeBatches([])).toEqual([]);
  });
});
