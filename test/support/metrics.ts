import { testEnv } from './env.js';

/** One process's `/metrics` text (Prometheus exposition format) on its metrics port. */
export async function scrapeMetrics(process: string): Promise<string> {
  const port = testEnv().metricsPorts[process];
  if (port === undefined) throw new Error(`no metrics port for ${process}`);
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (res.status !== 200) throw new Error(`${process} /metrics answered ${res.status}`);
  return res.text();
}

/**
 * The sum of the samples of `name` whose labels include `labels` (0 when none): the value of one
 * series, or of several added up (every status code of a route, say).
 */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Whether a metric family of this name is exposed at all (its HELP line). */
export const hasMetric = (text: string, name: string) => text.includes(`# HELP ${name} `);
