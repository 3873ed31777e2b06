import type { HealthReply, ServiceName, UpDown } from '@homereport/contracts';

export type StatusState = UpDown | 'unknown';

/** One line of the System Status block. */
export interface StatusRow {
  key: string;
  label: string;
  state: StatusState;
  /** What the state means in words, naming what is down. */
  text: string;
}

const SERVICE_LABELS: Record<ServiceName, string> = {
  auth: 'accounts',
  requests: 'requests',
  files: 'report files',
  zipcodes: 'ZIP codes',
  leads: 'leads',
  notifications: 'email',
};

/** The dependencies the services' readiness checks name, as staff know them. */
const DEPENDENCIES: { key: string; label: string }[] = [
  { key: 'mongo', label: 'Database' },
  { key: 'redis', label: 'Sessions and cache' },
  { key: 'kafka', label: 'Event stream' },
  { key: 's3', label: 'File storage' },
];

const serviceLabel = (name: string) => SERVICE_LABELS[name as ServiceName] ?? name;

/**
 * The System Status block from GET /api/health: the services, each shared dependency across the
 * services that use it, and email (the notifications service). A dependency no answering service
 * reported is "unknown", not "connected": only what was checked is claimed.
 */
export function systemStatus(health: HealthReply): StatusRow[] {
  const services = Object.entries(health.services);
  const down = services.filter(([, state]) => state === 'down').map(([name]) => serviceLabel(name));
  const rows: StatusRow[] = [
    {
      key: 'services',
      label: 'Services',
      state: down.length === 0 ? 'up' : 'down',
      text: down.length === 0 ? `All ${services.length} running` : `Not answering: ${down.join(', ')}`,
    },
  ];

  for (const dependency of DEPENDENCIES) {
    const reports = Object.entries(health.dependencies ?? {}).flatMap(([service, checks]) => {
      const state = checks[dependency.key];
      return state ? [{ service, state }] : [];
    });
    const failing = reports.filter((r) => r.state === 'down').map((r) => serviceLabel(r.service));
    let row: StatusRow;
    if (reports.length === 0) row = { ...dependency, state: 'unknown', text: 'Not reported' };
    else if (failing.length === 0) row = { ...dependency, state: 'up', text: 'Connected' };
    else row = { ...dependency, state: 'down', text: `Down for ${failing.join(', ')}` };
    rows.push(row);
  }

  const email = health.services.notifications;
  rows.push({
    key: 'email',
    label: 'Email Service',
    state: email ?? 'unknown',
    text: email === 'up' ? 'Active' : email === 'down' ? 'Not answering' : 'Not reported',
  });
  return rows;
}
