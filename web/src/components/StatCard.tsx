import { Icon, type IconName } from './Icon';
import './shared.css';

/**
 * One counter of a dashboard: icon, number and what it counts. Without a value (not read yet)
 * it shows a dash: a zero would claim something nobody has read.
 */
export function StatCard({
  label,
  value,
  icon,
  tone = 'blue',
  testId,
}: {
  label: string;
  value: number | string | undefined;
  icon: IconName;
  tone?: 'blue' | 'green' | 'yellow' | 'teal' | 'grey';
  testId?: string;
}) {
  return (
    <div className="card stat-card">
      <span className={`stat-icon stat-icon-${tone}`}>
        <Icon name={icon} size={22} />
      </span>
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value" data-testid={testId}>
          {value ?? '—'}
        </p>
      </div>
    </div>
  );
}
