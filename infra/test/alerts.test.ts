// The alert rules (infra/k8s/monitoring): promtool accepts them and the scrape configuration, and
// their unit tests (alerts.test.yaml) pass with a case where every alert fires; every alert links
// a runbook section (docs/runbooks) that says what it means, how to check and what to do; the
// alerts issue 41 asked for exist (a vanished process, crash loops, OOM kills, CPU throttling,
// autoscalers at their maximum, multi-window burn rates of the public API's SLOs); and the
// Prometheus Operator component ships the same rules and the scrape settings, built with the
// prod overlay. promtool and kustomize come from `npm run provision`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { cacheDir, repoRoot } from '../local/servers.mjs';
import { SERVICES } from '../local/stack.mjs';

const PROMTOOL = join(cacheDir, 'bin', 'promtool');
const KUSTOMIZE = join(cacheDir, 'bin', 'kustomize');
const MONITORING = join(repoRoot, 'infra/k8s/monitoring');
const PROCESSES = ['gateway', ...SERVICES];
for (const tool of [PROMTOOL, KUSTOMIZE])
  if (!existsSync(tool)) throw new Error(`${tool} is missing: run npm run provision`);

function promtool(args: string[]) {
  const run = spawnSync(PROMTOOL, args, { cwd: MONITORING, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}` };
}

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const groups = (parse(readFileSync(join(MONITORING, 'alerts.rules.yaml'), 'utf8')) as { groups: { rules: Rule[] }[] })
  .groups;
const alerts = groups.flatMap((g) => g.rules).filter((r) => r.alert);
const alert = (name: string) => alerts.find((a) => a.alert === name) as Rule;

describe('promtool', () => {
  it('accepts the alert rules and the scrape configuration', () => {
    const rules = promtool(['check', 'rules', 'alerts.rules.yaml']);
    expect(rules.status, rules.output).toBe(0);
    expect(rules.output).toMatch(/SUCCESS: \d+ rules found/);
    // The config names the rule file, so this checks both together.
    const config = promtool(['check', 'config', 'prometheus.yaml']);
    expect(config.status, config.output).toBe(0);
  });

  it('passes the unit tests of alerts.test.yaml', () => {
    const tests = promtool(['test', 'rules', 'alerts.test.yaml']);
    expect(tests.status, tests.output).toBe(0);
    expect(tests.output).toContain('SUCCESS');
  });

  it('has a unit test where each alert fires (and so checks its labels and every annotation)', () => {
    const tests = (
      parse(readFileSync(join(MONITORING, 'alerts.test.yaml'), 'utf8')) as {
        tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
      }
    ).tests;
    const firing = new Set(
      tests.flatMap((t) => (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)),
    );
    expect(alerts.length).toBeGreaterThanOrEqual(17);
    expect(alerts.map((a) => a.alert).filter((name) => !firing.has(name as string))).toEqual([]);
  });
});

describe('alerts', () => {
  /** GitHub's anchor of a heading: lower case, spaces to dashes, punctuation dropped. */
  const anchor = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\w\- ]/g, '')
      .replace(/ /g, '-');

  it('each link a runbook section that says what it means, how to check and what to do', () => {
    for (const a of alerts) {
      const url = a.annotations?.runbook_url ?? '';
      const m = /^https:\/\/\S+\/blob\/main\/(docs\/runbooks\/[\w-]+\.md)#([\w-]+)$/.exec(url);
      expect(m, `${a.alert}: runbook_url ${url}`).not.toBeNull();
      const [, file, target] = m as RegExpExecArray;
      const text = readFileSync(join(repoRoot, file as string), 'utf8');
      const sections = text.split(/^## /m).slice(1);
      const section = sections.find((s) => anchor(s.split('\n')[0] as string) === target);
      expect(section, `${a.alert}: ${file} has no section #${target}`).toBeDefined();
      for (const part of ['What it means', 'How to check', 'What to do'])
        expect(section, `${a.alert}: "${part}"`).toContain(`**${part}.**`);
      expect(a.annotations?.summary, a.alert).toBeTruthy();
      expect(a.annotations?.description, a.alert).toBeTruthy();
      expect(['page', 'ticket'], a.alert).toContain(a.labels?.severity);
    }
  });

  it('fire for a process that vanished, crash loops, OOM kills, CPU throttling and autoscalers at their maximum', () => {
    // absent() of each process by its `service` label: with no target left, `up` has nothing to say.
    const absent = alert('ProcessAbsent').expr;
    for (const p of PROCESSES)
      expect(absent, p).toContain(`absent(process_start_time_seconds{job="homereport",service="${p}"})`);
    expect(alert('PodCrashLooping').expr).toMatch(/kube_pod_container_status_restarts_total/);
    expect(alert('PodCrashLooping').expr).toMatch(/reason="CrashLoopBackOff"/);
    expect(alert('ContainerOOMKilled').expr).toMatch(
      /kube_pod_container_status_last_terminated_reason\{[^}]*reason="OOMKilled"/,
    );
    expect(alert('CPUThrottlingHigh').expr).toMatch(/container_cpu_cfs_throttled_periods_total/);
    expect(alert('AutoscalerAtMaximum').expr).toMatch(
      /kube_horizontalpodautoscaler_status_current_replicas[\s\S]*>=[\s\S]*kube_horizontalpodautoscaler_spec_max_replicas/,
    );
  });

  it('guard the public API SLOs (99.5% without a 5xx, 99% within 1 s) with multi-window burn rates', () => {
    const records = new Map(
      groups
        .flatMap((g) => g.rules)
        .filter((r) => r.record)
        .map((r) => [r.record, r.expr]),
    );
    for (const w of ['5m', '30m', '1h', '2h', '6h', '1d', '3d']) {
      expect(records.get(`slo:api_error_ratio:rate${w}`), w).toMatch(/status_code=~"5\.\."/);
      expect(records.get(`slo:api_slow_ratio:rate${w}`), w).toMatch(/le="1"/);
    }
    // The SRE workbook's pairs: 14.4x over 1 h with 5 m, 6x over 6 h with 30 m (page); 3x over
    // 1 d with 2 h, 1x over 3 d with 6 h (ticket), against budgets of 0.5% and 1%.
    const pairs = (expr: string) => [...expr.matchAll(/slo:(\w+):rate(\w+) > ([\d.]+) and slo:\1:rate(\w+) > \3/g)];
    for (const [name, metric, budget] of [
      ['ApiAvailability', 'api_error_ratio', 0.005],
      ['ApiLatency', 'api_slow_ratio', 0.01],
    ] as const) {
      const fast = pairs(alert(`${name}BudgetBurnFast`).expr).map((m) => [m[1], m[2], Number(m[3]), m[4]]);
      expect(fast).toEqual([
        [metric, '1h', +(14.4 * budget).toFixed(6), '5m'],
        [metric, '6h', +(6 * budget).toFixed(6), '30m'],
      ]);
      expect(alert(`${name}BudgetBurnFast`).labels?.severity).toBe('page');
      const slow = pairs(alert(`${name}BudgetBurnSlow`).expr).map((m) => [m[1], m[2], Number(m[3]), m[4]]);
      expect(slow).toEqual([
        [metric, '1d', +(3 * budget).toFixed(6), '2h'],
        [metric, '3d', +(1 * budget).toFixed(6), '6h'],
      ]);
      expect(alert(`${name}BudgetBurnSlow`).labels?.severity).toBe('ticket');
    }
  });
});

describe('the Prometheus Operator component (monitoring/operator)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'homereport-operator-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // An overlay as an operator would write it: prod plus the component (kustomize wants relative paths).
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    [
      'namespace: homereport',
      'resources:',
      `  - ${relative(dir, join(repoRoot, 'infra/k8s/overlays/prod'))}`,
      'components:',
      `  - ${relative(dir, join(MONITORING, 'operator'))}`,
      '',
    ].join('\n'),
  );
  const objects = parseAllDocuments(execFileSync(KUSTOMIZE, ['build', dir], { encoding: 'utf8' })).map(
    (d) =>
      d.toJS() as {
        kind: string;
        metadata: { name: string; namespace?: string; labels?: Record<string, string> };
        spec: any;
      },
  );

  it('ships exactly the rules promtool checks, as a PrometheusRule', () => {
    const [rule, ...others] = objects.filter((o) => o.kind === 'PrometheusRule');
    expect(others).toEqual([]);
    expect(rule?.metadata.namespace).toBe('homereport');
    // prometheusrule.yaml is generated (operator/generate.mjs): run it after changing the rules.
    expect(rule?.spec.groups, 'run node infra/k8s/monitoring/operator/generate.mjs').toEqual(groups);
  });

  it("scrapes every server's metrics port through its Service, keeping the process's labels", () => {
    const [monitor, ...others] = objects.filter((o) => o.kind === 'ServiceMonitor');
    expect(others).toEqual([]);
    const selector = monitor?.spec.selector.matchLabels as Record<string, string>;
    const [endpoint] = monitor?.spec.endpoints ?? [];
    expect(endpoint.port).toBe('metrics');
    // The rules group by the process's own `service` label, and name the job `homereport`.
    expect(endpoint.honorLabels).toBe(true);
    expect(endpoint.relabelings).toContainEqual({ action: 'replace', targetLabel: 'job', replacement: 'homereport' });
    // The same interval and timeout as prometheus.yaml's job.
    const job = (parse(readFileSync(join(MONITORING, 'prometheus.yaml'), 'utf8')) as any).scrape_configs[0];
    expect(endpoint.scrapeTimeout).toBe(job.scrape_timeout);
    for (const name of PROCESSES) {
      const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === name);
      expect(
        Object.entries(selector).every(([k, v]) => service?.metadata.labels?.[k] === v),
        name,
      ).toBe(true);
      const port = service?.spec.ports.find((p: { name: string }) => p.name === 'metrics');
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
      const container = deployment?.spec.template.spec.containers[0];
      expect(port?.targetPort, name).toBe('metrics');
      expect(container.ports.find((p: { name: string }) => p.name === 'metrics')?.containerPort, name).toBeDefined();
    }
  });
});
