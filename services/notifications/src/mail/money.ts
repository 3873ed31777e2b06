/**
 * "$1,234" and "-$1,235": an amount in whole US dollars, as Intl.NumberFormat('en-US', { style:
 * 'currency', currency: 'USD', maximumFractionDigits: 0 }) writes it (halves rounded away from
 * zero, "-$0" for a small negative amount). Written out rather than made with Intl: the first Intl formatter a process makes loads
 * ICU's locale data, about 7 MB of resident memory for the life of the process (bench:memory),
 * for what is a handful of digits in an occasional email.
 */
export function wholeDollars(value: number): string {
  const rounded = Math.round(Math.abs(value));
  const digits = String(rounded).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // Intl keeps the sign of a negative amount that rounds to zero ("-$0"), so this does too.
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}$${digits}`;
}
