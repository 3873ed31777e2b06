import type { ZipMonthlyMedian } from '@homereport/contracts';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { usdAxis } from './chartAxis';
import { formatMonth, formatUsd } from './zipFormat';

// This module (and recharts with it) is loaded lazily, by the pages that draw a chart: the ZIP
// detail page and, for the trend, the report page (so it sits at the feature's root).

/**
 * The dollar Y axis of both charts: our ticks and labels rather than recharts' own, which
 * repeated labels on a narrow range.
 */
function usdYAxis(values: number[], fromZero?: boolean) {
  const { ticks, format } = usdAxis(values, fromZero);
  const first = ticks[0];
  const last = ticks.at(-1);
  const domain: [number, number] | ['auto', 'auto'] =
    first === undefined || last === undefined ? ['auto', 'auto'] : [first, last];
  return { ticks, domain, tickFormatter: format, tick: { fontSize: 12 }, width: 64 };
}

/** The 12 monthly medians as a line; smaller where it is context (the report page). */
export function PriceTrendChart({
  monthly,
  height = 260,
  caption = `Median sale price, last ${monthly.length} months`,
}: { monthly: ZipMonthlyMedian[]; height?: number; caption?: string }) {
  const data = monthly.map((m) => ({ month: formatMonth(m.month), price: m.medianPrice }));
  const yAxis = usdYAxis(data.map((d) => d.price));
  return (
    <figure className="zip-chart" data-testid="price-trend-chart">
      <figcaption>{caption}</figcaption>
      <ResponsiveContainer width="100%" height={height}>
        <LineChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="month" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          <YAxis {...yAxis} />
          <Tooltip formatter={(value) => [formatUsd(Number(value)), 'Median price']} />
          <Line
            type="monotone"
            dataKey="price"
            stroke="#2563eb"
            strokeWidth={3}
            dot={{ r: 3 }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Average rent by bedroom count as bars (unknown rents are left out). */
export function RentChart({ rents }: { rents: { short: string; rent: number | null | undefined }[] }) {
  const data = rents
    .filter((r): r is { short: string; rent: number } => typeof r.rent === 'number')
    .map((r) => ({ label: r.short, rent: r.rent }));
  const yAxis = usdYAxis(
    data.map((d) => d.rent),
    true,
  );
  return (
    <figure className="zip-chart" data-testid="rent-chart">
      <figcaption>Average monthly rent by unit size</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval={0} />
          <YAxis {...yAxis} />
          <Tooltip formatter={(value) => [formatUsd(Number(value)), 'Average rent']} />
          <Bar dataKey="rent" fill="#14b8a6" radius={[6, 6, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
