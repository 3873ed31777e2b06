/**
 * The English month names, January first (index = `Date#getUTCMonth()`), for the dates the
 * services write into reports and emails. Spelled out rather than Intl.DateTimeFormat: the first
 * Intl formatter a process makes loads ICU's locale and time zone data, about 8 MB of resident
 * memory for the life of the process (bench:memory), and English is all they write.
 */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
