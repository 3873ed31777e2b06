// Writes prometheusrule.yaml, the PrometheusRule of ../alerts.rules.yaml (the one source of the
// rules: promtool checks and tests that file). `node infra/k8s/monitoring/operator/generate.mjs`
// after changing the rules; infra/test/alerts.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

const here = new URL('.', import.meta.url);
const rules = parse(readFileSync(new URL('../alerts.rules.yaml', here), 'utf8'));
const object = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'PrometheusRule',
  metadata: { name: 'homereport', labels: { 'app.kubernetes.io/part-of': 'homereport' } },
  spec: { groups: rules.groups },
};
const header =
  '# Generated from ../alerts.rules.yaml by generate.mjs: edit that file, then run\n' +
  '# `node infra/k8s/monitoring/operator/generate.mjs`.\n';
writeFileSync(new URL('prometheusrule.yaml', here), header + stringify(object, { lineWidth: 0 }));
