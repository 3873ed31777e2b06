import { describe, expect, it } from 'vitest';
import { duplicatesOfBulkWrite, isDuplicateKey } from './duplicate-keys.js';

describe('duplicate keys', () => {
  it('are told apart from any other write error', () => {
    expect(isDuplicateKey(Object.assign(new Error('E11000 duplicate key'), { code: 11000 }))).toBe(true);
    expect(isDuplicateKey(Object.assign(new Error('not primary'), { code: 10107 }))).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
  });

  it("of a bulk insert: the positions found stored, from the driver's errors and from mongoose's copies", () => {
    expect(
      duplicatesOfBulkWrite({ writeErrors: [{ code: 11000, index: 0 }, { err: { code: 11000, index: 2 } }] }),
    ).toEqual([0, 2]);
    expect(duplicatesOfBulkWrite({ writeErrors: { code: 11000, index: 1 } })).toEqual([1]);
    // Anything else among the failures, or no write errors at all: not "stored already".
    expect(
      duplicatesOfBulkWrite({
        writeErrors: [
          { code: 11000, index: 0 },
          { code: 121, index: 1 },
        ],
      }),
    ).toBeNull();
    expect(duplicatesOfBulkWrite(new Error('timed out'))).toBeNull();
  });
});
