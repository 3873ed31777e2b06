import { describe, expect, it } from 'vitest';
import { parseJsonKeepingLongIntegers, quoteLongIntegers } from './json-body.js';

describe('parseJsonKeepingLongIntegers', () => {
  it('keeps an int64 beyond 2^53 as its exact digits', () => {
    const parsed = parseJsonKeepingLongIntegers('{"campaign_id": 9223372036854775807, "form_id": -9007199254740993}');
    expect(parsed).toEqual({ campaign_id: '9223372036854775807', form_id: '-9007199254740993' });
  });

  it('leaves numbers a double holds exactly as numbers', () => {
    expect(parseJsonKeepingLongIntegers('{"a": 20000000000, "b": 1.5e3, "c": 9007199254740991, "d": [1, -2]}')).toEqual(
      {
        a: 20000000000,
        b: 1500,
        c: 9007199254740991,
        d: [1, -2],
      },
    );
  });

  it('does not touch digits inside strings, including after escaped quotes', () => {
    const text = '{"note": "id \\"12345678901234567890\\" here", "x": 12345678901234567890}';
    expect(parseJsonKeepingLongIntegers(text)).toEqual({
      note: 'id "12345678901234567890" here',
      x: '12345678901234567890',
    });
  });

  it('leaves long decimals alone and returns the same text when nothing needs quoting', () => {
    const text = '{"ratio": 0.1234567890123456789}';
    expect(quoteLongIntegers(text)).toBe(text);
  });

  it('still refuses malformed JSON', () => {
    expect(() => parseJsonKeepingLongIntegers('{"a": 12345678901234567890')).toThrow();
  });
});
