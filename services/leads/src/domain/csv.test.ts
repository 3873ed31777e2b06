import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';

describe('csv', () => {
  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('Smith, "Jo"\nJr')).toBe('"Smith, ""Jo""\nJr"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(' edge')).toBe('" edge"');
  });

  it('writes empty cells for null and CRLF at the end of a row', () => {
    expect(csvRow(['a', null, true, 3])).toBe('a,,true,3\r\n');
  });

  it('defuses formulas but leaves phone numbers and negative numbers alone', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+1 (555) 010-0100')).toBe('+1 (555) 010-0100');
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('-12.5')).toBe('-12.5');
  });
});
