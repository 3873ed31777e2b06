/**
 * A Prometheus histogram whose observation is a bucket search and three additions, for the
 * durations recorded on every request (HTTP, MongoDB, Redis, S3, SMTP) and every consumed batch.
 *
 * prom-client's `Histogram#observe`, even through a child made once per label set, builds a
 * labels object, checks each label and hashes the label set again on every call; in the gateway
 * that was about 4% of its busy time on a kept public answer (bench:metrics CPU profile), most of
 * the metrics' cost the issue allows in all. Here a series is found once per label set and kept by
 * its caller, and its counts are turned into exposition text only when Prometheus scrapes
 * (registry.ts joins this text to prom-client's for the other metrics).
 */
export class BucketHistogram<L extends string> {
  private readonly all: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    readonly buckets: readonly number[],
  ) {
    if (buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= buckets[i - 1]!)))
      throw new Error(`${name}: buckets must be finite and increasing`);
  }

  /**
   * A new series for one set of label values. The caller keeps it (label values are bounded, so
   * the series are too); asking twice for the same values makes two series of the same name.
   */
  series(labels: Record<L, string>): HistogramSeries {
    const series = new HistogramSeries(this.buckets, labelText(this.labelNames, labels));
    this.all.push(series);
    return series;
  }

  /** The exposition text of every series, cumulative buckets as Prometheus reads them. */
  expose(extraLabels: string): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} histogram`];
    for (const s of this.all) {
      const labels = [s.labels, extraLabels].filter(Boolean).join(',');
      const prefix = labels ? `${labels},` : '';
      let cumulative = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        cumulative += s.counts[i]!;
        lines.push(`${this.name}_bucket{${prefix}le="${this.buckets[i]}"} ${cumulative}`);
      }
      lines.push(`${this.name}_bucket{${prefix}le="+Inf"} ${s.count}`);
      const own = labels ? `{${labels}}` : '';
      lines.push(`${this.name}_sum${own} ${s.sum}`, `${this.name}_count${own} ${s.count}`);
    }
    return lines.join('\n');
  }
}

export class HistogramSeries {
  /** Observations per bucket (not cumulative); those above the last bound only in `count`. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    private readonly bounds: readonly number[],
    readonly labels: string,
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

/** `a="x",b="y"` in the label names' order, values escaped as the exposition format requires. */
export function labelText(names: readonly string[], labels: Record<string, string>): string {
  return names.map((n) => `${n}="${escapeLabelValue(labels[n] ?? '')}"`).join(',');
}

const escapeLabelValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/**
 * The series kept for one set of label values, made on first use and then reused (label values
 * are bounded, so the map is too). `key` is the values joined.
 */
export function seriesOf<L extends string>(
  histogram: BucketHistogram<L>,
  cache: Map<string, HistogramSeries>,
  key: string,
  labels: Record<L, string>,
): HistogramSeries {
  let series = cache.get(key);
  if (!series) {
    series = histogram.series(labels);
    cache.set(key, series);
  }
  return series;
}
