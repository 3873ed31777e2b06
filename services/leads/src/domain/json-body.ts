/**
 * JSON.parse for inbound leads. Google sends int64 ids (campaign_id, form_id, ...) as JSON
 * numbers; a double holds only 53 bits, so `JSON.parse` would silently change the digits of a
 * large one. Integer literals outside strings that a double cannot hold exactly are quoted
 * first, so they arrive as the exact digit strings the platform sent.
 */
export function parseJsonKeepingLongIntegers(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

const LONG_DIGITS = /\d{16}/;

export function quoteLongIntegers(text: string): string {
  // Fast path: no run of 16 digits anywhere, so no number can lose precision.
  if (!LONG_DIGITS.test(text)) return text;
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, stepping over escapes. Digits inside stay as they are.
      i += 1;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i += 2;
        else if (d === 0x22) {
          i += 1;
          break;
        } else i += 1;
      }
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i += 1;
      while (i < n && isNumberChar(text.charCodeAt(i))) i += 1;
      const token = text.slice(start, i);
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        parts.push(text.slice(copied, start), `"${token}"`);
        copied = i;
      }
      continue;
    }
    i += 1;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
