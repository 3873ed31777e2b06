/**
 * The opaque `cursor` of the lead list: the list position (sequence number) of the last lead of
 * the previous page; the next page holds positions below it. Opaque so the position scheme may
 * change without breaking clients.
 */
export function encodeCursor(position: number): string {
  return Buffer.from(`p${position}`, 'utf8').toString('base64url');
}

/** The position, or null when the text is not a cursor this service wrote. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null;
  const match = /^p(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const position = Number(match[1]);
  return position >= 1 ? position : null;
}
