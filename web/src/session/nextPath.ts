/**
 * "Back to where you were": a guarded page sends a signed-out visitor to its sign-in page with
 * `?next=<path and query>`, and the sign-in returns there. `next` comes from the address bar, so
 * anyone can craft it: only a path on this site is followed, never another origin (an open
 * redirect would lend our sign-in page to phishing).
 */

export const NEXT_PARAM = 'next';

/** Longer than any page of the app with its query; anything longer is not one of ours. */
const MAX_NEXT_LENGTH = 2048;

/**
 * `next` when it is a path on this site: one leading "/", not "//" or "/\" (both mean another
 * host to a browser), no scheme, no control characters or spaces (browsers drop tabs and line
 * breaks, so "/\t/evil.example" would become "//evil.example"). Otherwise null.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || next.length > MAX_NEXT_LENGTH) return null;
  if (!next.startsWith('/')) return null;
  if (next.startsWith('//') || next.startsWith('/\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007f\\]/.test(next)) return null;
  // Belt and braces: whatever the browser makes of it must stay on this origin.
  const base = 'https://homereport.invalid';
  try {
    if (new URL(next, base).origin !== base) return null;
  } catch {
    return null;
  }
  return next;
}

/** The sign-in page (`/login` or `/admin-login`) that returns to `path` (pathname plus search) afterwards. */
export function signInPathFor(signInPage: string, path: string): string {
  const next = safeNext(path);
  if (!next || next === '/') return signInPage;
  return `${signInPage}?${new URLSearchParams({ [NEXT_PARAM]: next }).toString()}`;
}

/** Where a sign-in lands: `next` when it is safe, else the user's home. */
export function afterSignIn(next: string | null | undefined, home: string): string {
  return safeNext(next) ?? home;
}
