import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../lib/bytes';
import { importFailureMessage, importFileProblem, percentSent } from './zipImport';

describe('the ZIP import screen', () => {
  it('sends .json files and refuses other kinds and empty files before uploading', () => {
    expect(importFileProblem({ name: 'analyses.json', type: '', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'EXPORT.JSON', type: 'application/json', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'data', type: 'application/json', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'analyses.csv', type: 'text/csv', size: 10 })).toMatch(
      /analyses\.csv is not a \.json file/,
    );
    expect(importFileProblem({ name: 'empty.json', type: 'application/json', size: 0 })).toMatch(
      /empty\.json is empty/,
    );
  });

  it('words each failure with what to do', () => {
    const failure = (status: number, error = 'x', networkError = false) =>
      importFailureMessage({ status, error, networkError });
    expect(failure(413)).toMatch(/too large.*Split/);
    expect(failure(400, 'Unexpected token } in JSON at position 12')).toBe(
      'The file was not imported: it is not a JSON array of ZIP code analyses. The server said: Unexpected token } in JSON at position 12',
    );
    expect(failure(401)).toMatch(/session has ended/);
    expect(failure(403)).toMatch(/Only administrators/);
    expect(failure(503)).toMatch(/could not import the file just now/);
    expect(failure(0, 'Network error. Please try again.', true)).toMatch(/^Network error.*check your connection/);
    expect(failure(409, 'Something the server explains')).toBe('Something the server explains');
  });

  it('tells sizes and progress the way people read them', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(900)).toBe('900 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12 * 1024 * 1024)).toBe('12.0 MB');
    expect(percentSent({ loaded: 0, total: 200 })).toBe(0);
    expect(percentSent({ loaded: 99, total: 200 })).toBe(49);
    expect(percentSent({ loaded: 200, total: 200 })).toBe(100);
    expect(percentSent({ loaded: 5, total: 0 })).toBe(100);
  });
});
