import parseAddress from 'parse-address';

/**
 * The property an address names (api.md "Properties"): the address parsed by `parse-address`
 * (chosen by measured accuracy, decision 017), its parts in USPS form and lower case, joined. Two
 * addresses with the same key are one property. Suffixes and directionals come out abbreviated
 * (`Street` → `st`, `North` → `n`); a unit keeps only its number, so `Apt 4`, `Unit 4` and `#4`
 * are one unit; the ZIP is its first five digits. An address without a house number and a street
 * is not read by the parser: its key is the trimmed, case-folded text.
 */
/** The ZIP5 a property key ends with (see propertyKey), or null when its address had none. */
export function zipOfKey(key: string | undefined): string | null {
  // A request stored before properties may not have a key yet.
  if (!key || key.startsWith('text:')) return null;
  const zip = key.slice(key.lastIndexOf('|') + 1);
  return /^[0-9]{5}$/.test(zip) ? zip : null;
}

export function propertyKey(address: string): string {
  const text = address.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  const parsed = parseAddress.parseLocation(text);
  if (!parsed?.number || !parsed.street) return `text:${text.toLowerCase()}`;
  const part = (value: string | undefined) =>
    (value ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return [
    parsed.number,
    parsed.prefix,
    parsed.street,
    parsed.type,
    parsed.suffix,
    parsed.sec_unit_num,
    parsed.city,
    parsed.state,
    parsed.zip?.slice(0, 5),
  ]
    .map(part)
    .join('|');
}
