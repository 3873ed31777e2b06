import type { LegendEntry } from './types';

/** The colour of a value nobody knows: grey, apart from every class of every scale. */
export const UNKNOWN_COLOUR = '#94a3b8';
export const UNKNOWN_LABEL = 'Not known';

/** A value's colour, and the legend that explains every colour the scale can give. */
export interface ColourScale<T> {
  colourOf: (value: T | null | undefined) => string;
  legend: LegendEntry[];
}

/**
 * Classes cut at fixed thresholds rather than at the data's own quantiles: a colour then means the
 * same on every page, filter and import, and the legend reads as plain ranges. `colours` has one
 * more entry than `thresholds`; a value equal to a threshold belongs to the class above it.
 */
export function thresholdScale(
  thresholds: readonly number[],
  colours: readonly string[],
  format: (value: number) => string,
): ColourScale<number> {
  if (colours.length !== thresholds.length + 1) {
    throw new Error(`${thresholds.length} thresholds need ${thresholds.length + 1} colours, not ${colours.length}`);
  }
  for (let i = 1; i < thresholds.length; i++) {
    if ((thresholds[i] ?? 0) <= (thresholds[i - 1] ?? 0)) throw new Error('thresholds must rise');
  }
  const colourOf = (value: number | null | undefined) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return UNKNOWN_COLOUR;
    const index = thresholds.filter((threshold) => value >= threshold).length;
    return colours[index] ?? UNKNOWN_COLOUR;
  };
  const legend = colours.map((colour, index) => {
    const low = thresholds[index - 1];
    const high = thresholds[index];
    if (low === undefined) return { colour, label: `Below ${format(high ?? 0)}` };
    if (high === undefined) return { colour, label: `${format(low)} and above` };
    return { colour, label: `${format(low)} to ${format(high)}` };
  });
  return { colourOf, legend: [...legend, { colour: UNKNOWN_COLOUR, label: UNKNOWN_LABEL }] };
}

/** One colour per named category, in the legend's order; anything else is "not known". */
export function categoryScale<T extends string | number>(
  categories: readonly { value: T; colour: string; label: string }[],
): ColourScale<T> {
  const colourOf = (value: T | null | undefined) =>
    categories.find((category) => category.value === value)?.colour ?? UNKNOWN_COLOUR;
  const legend = categories.map(({ colour, label }) => ({ colour, label }));
  return { colourOf, legend: [...legend, { colour: UNKNOWN_COLOUR, label: UNKNOWN_LABEL }] };
}
