import type { ApiFailure } from '../../api/client';

/**
 * The rules of the ZIP import screen that need no browser: which files it sends, how it words a
 * failed import, and how it tells progress.
 */

/** A file as the picker and a drop give it. */
export interface PickedFile {
  name: string;
  type: string;
  size: number;
}

/** Why this file is not sent, or null to send it. The server checks the content; this only the kind. */
export function importFileProblem(file: PickedFile): string | null {
  const json = file.name.toLowerCase().endsWith('.json') || file.type === 'application/json';
  if (!json) return `${file.name} is not a .json file. Choose a .json file holding an array of ZIP code analyses.`;
  if (file.size === 0) return `${file.name} is empty. Choose a .json file holding an array of ZIP code analyses.`;
  return null;
}

/** A failed import in words: what happened and what to do about it. */
export function importFailureMessage(failure: Pick<ApiFailure, 'status' | 'error' | 'networkError'>): string {
  if (failure.networkError) {
    return `${failure.error} Nothing may have been imported; check your connection and import the file again (importing a ZIP code twice replaces it, no harm done).`;
  }
  switch (failure.status) {
    case 400:
      return `The file was not imported: it is not a JSON array of ZIP code analyses. The server said: ${failure.error}`;
    case 401:
      return 'Your session has ended. Sign in again, then import the file.';
    case 403:
      return 'Only administrators can import ZIP code analyses.';
    case 413:
      return 'The file is too large to import at once. Split the array into smaller files and import each.';
    case 429:
      return 'Too many requests just now. Wait a moment, then import the file again.';
    default:
      return failure.status >= 500
        ? 'The server could not import the file just now; nothing may have been stored. Try again in a moment.'
        : failure.error;
  }
}

/** Whole percent sent, 0-100; a total of 0 counts as done. */
export function percentSent({ loaded, total }: { loaded: number; total: number }): number {
  if (total <= 0) return 100;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}
