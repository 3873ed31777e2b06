import parseAddress from 'parse-address';

/**
 * The property an address names (api.md "Properties"): the address parsed by `parse-address`
 * (chosen by measured accuracy, decision 017), its parts in USPS form and lower case, joined. Two
 * addresses with the same key are one property. Suffixes and directionals come out abbreviated
 * (`Street` → `st`, `North` → `n`); a unit keeps only its number, so `Apt 4`, `Unit 4` and `#4`
 * are one unit; the ZIP is its first five digits. An address without a house number and a street
 * is not read by the parser: its key is the trimmed, case-folded text.
 */
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

/**
 * The property's ZIP5 as its address writes it (read the way `propertyKey` reads it), or null when
 * the address has none or is not one the parser reads. The report page shows that ZIP's
 * analysis and places the property on the map by it.
 */
export function zipCodeOf(address: string): string | null {
  const parsed = parseAddress.parseLocation(address.normalize('NFKC').replace(/\s+/gu, ' ').trim());
  if (!parsed?.number || !parsed.street) return null;
  const zip = parsed.zip?.slice(0, 5);
  return zip && /^[0-9]{5}$/.test(zip) ? zip : null;
}
