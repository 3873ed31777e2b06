import type { ReactNode } from 'react';
import { Icon } from './Icon';

type AlertKind = 'error' | 'success' | 'info';

const icons = { error: 'alert', success: 'checkCircle', info: 'help' } as const;

export function Alert({
  kind,
  children,
  testId,
  id,
}: { kind: AlertKind; children: ReactNode; testId?: string; id?: string }) {
  return (
    <div id={id} className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <Icon name={icons[kind]} size={20} className="alert-icon" />
      <div className="alert-body">{children}</div>
    </div>
  );
}
