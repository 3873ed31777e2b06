/**
 * The money axis of the ZIP charts. Recharts picks ticks and formats each alone, so a tight range
 * (medians between $1.38M and $1.47M) came out as "$1.4M" four times. Here the ticks are chosen
 * first (round steps over the data's range) and the labels then get as many decimals as it takes
 * for no two to read the same: $1.38M, $1.40M, $1.42M...
 */

/**
 * Steps an axis may use, times a power of ten. No 2.5: its ticks need one more digit than the
 * step suggests ($1.375M), where 1, 2 and 5 keep labels short ($1.35M, $1.40M).
 */
const NICE_STEPS = [1, 2, 5, 10];

/** Drops the float noise of repeated multiplication (0.1 * 3 = 0.30000000000000004). */
const clean = (value: number) => Number(value.toPrecision(12));

/** About `count` evenly spaced round values covering [min, max], lowest first. */
export function axisTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  const low = Math.min(min, max);
  const high = Math.max(min, max);
  // A flat series still needs a range to draw against: a tenth of its value either side.
  const span = high > low ? high - low : Math.abs(high) / 5 || 1;
  const raw = span / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = clean((NICE_STEPS.find((s) => s * magnitude >= raw) ?? 10) * magnitude);
  const centre = (low + high) / 2;
  const first = Math.floor((high > low ? low : centre - span / 2) / step) * step;
  const last = Math.ceil((high > low ? high : centre + span / 2) / step) * step;
  const ticks: number[] = [];
  for (let i = 0; clean(first + i * step) <= clean(last); i += 1) ticks.push(clean(first + i * step));
  return ticks;
}

type Unit = { divisor: number; suffix: string };

function unitFor(ticks: readonly number[]): Unit {
  const largest = Math.max(0, ...ticks.map((t) => Math.abs(t)));
  if (largest >= 1_000_000) return { divisor: 1_000_000, suffix: 'M' };
  if (largest >= 10_000) return { divisor: 1000, suffix: 'K' };
  return { divisor: 1, suffix: '' };
}

function label(value: number, unit: Unit, decimals: number): string {
  if (value === 0) return '$0';
  const sign = value < 0 ? '-' : '';
  const amount = Math.abs(value) / unit.divisor;
  const digits = amount.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return `${sign}$${digits}${unit.suffix}`;
}

/** The most decimals an axis label gets; ticks from `axisTicks` never need more. */
const MAX_DECIMALS = 3;

/** Whether `decimals` show `value` in this unit without rounding it to another number. */
function exact(value: number, unit: Unit, decimals: number): boolean {
  const scaled = value / unit.divisor;
  return Math.abs(Number(scaled.toFixed(decimals)) - scaled) < 1e-9 * Math.max(1, Math.abs(scaled));
}

/**
 * A tick formatter for these ticks in compact dollars ($350K, $1.45M, $2,500), every label with
 * the same number of decimals: the fewest that show each tick as it is, and so tell them apart.
 */
export function compactUsdAxis(ticks: readonly number[]): (value: number) => string {
  const unit = unitFor(ticks);
  const fits = (decimals: number) =>
    ticks.every((t) => exact(t, unit, decimals)) &&
    new Set(ticks.map((t) => label(t, unit, decimals))).size === ticks.length;
  let decimals = 0;
  while (decimals < MAX_DECIMALS && !fits(decimals)) decimals += 1;
  return (value: number) => label(value, unit, decimals);
}

/** Ticks and their labels for a money axis over `values`; `fromZero` for bars, which start at $0. */
export function usdAxis(
  values: readonly number[],
  fromZero = false,
): { ticks: number[]; format: (v: number) => string } {
  const known = values.filter((v) => Number.isFinite(v));
  if (known.length === 0) return { ticks: [], format: compactUsdAxis([]) };
  const ticks = axisTicks(fromZero ? Math.min(0, ...known) : Math.min(...known), Math.max(...known));
  return { ticks, format: compactUsdAxis(ticks) };
}
