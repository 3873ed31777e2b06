import type { ZipMonthlyMedian } from '@homereport/contracts';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMonth, formatUsd } from '../zipFormat';

// This module (and recharts with it) is loaded only by the ZIP detail page, lazily.

function compactUsd(value: number): string {
  if (value >= 1_000_000) return `$${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 10_000) return `$${Math.round(value / 1000)}K`;
  if (value >= 1000) return `$${(value / 1000).toFixed(1).replace(/\.0$/, '')}K`;
  return `$${value}`;
}

/** The 12 monthly medians as a line. */
export function PriceTrendChart({ monthly }: { monthly: ZipMonthlyMedian[] }) {
  const data = monthly.map((m) => ({ month: formatMonth(m.month), price: m.medianPrice }));
  return (
    <figure className="zip-chart" data-testid="price-trend-chart">
      <figcaption>Median sale price, last {monthly.length} months</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="month" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          <YAxis tickFormatter={compactUsd} tick={{ fontSize: 12 }} width={64} domain={['auto', 'auto']} />
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
  const data = rents.filter((r) => typeof r.rent === 'number').map((r) => ({ label: r.short, rent: r.rent }));
  return (
    <figure className="zip-chart" data-testid="rent-chart">
      <figcaption>Average monthly rent by unit size</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval={0} />
          <YAxis tickFormatter={compactUsd} tick={{ fontSize: 12 }} width={64} />
          <Tooltip formatter={(value) => [formatUsd(Number(value)), 'Average rent']} />
          <Bar dataKey="rent" fill="#14b8a6" radius={[6, 6, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
