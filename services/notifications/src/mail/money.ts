/** Whole U.S. dollars as the emails write them: "$1,234", "-$1,235". */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

export const wholeDollars = (value: number): string => usd.format(value);
