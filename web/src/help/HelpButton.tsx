import { useEffect, useRef, useState } from 'react';
import { Icon } from '../components/Icon';
import { site } from '../config/site';
import { ACTIVITY_EVENTS, type IdleTimer, createIdleTimer } from './idleTimer';

export const HELP_BUTTON_TEXT =
  'Get Advanced Support: unlock personalized property analysis, custom research projects, and expert investment consulting';

function browserStorage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}

/** The round advanced-support button that appears after 10 idle minutes, on every page. */
export function HelpButton() {
  const [visible, setVisible] = useState(false);
  const timerRef = useRef<IdleTimer | null>(null);

  useEffect(() => {
    const timer = createIdleTimer({
      activityStore: browserStorage('localStorage'),
      dismissStore: browserStorage('sessionStorage'),
      onVisibilityChange: setVisible,
    });
    timerRef.current = timer;
    const onActivity = () => timer.recordActivity();
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });
    timer.start();
    return () => {
      timer.stop();
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
      timerRef.current = null;
    };
  }, []);

  if (!visible) return null;

  return (
    <div className="help-fab" data-testid="help-button-container">
      <a
        className="help-fab-button"
        href={site.subscribeUrl}
        target="_blank"
        rel="noopener noreferrer"
        title={HELP_BUTTON_TEXT}
        aria-label={HELP_BUTTON_TEXT}
        data-testid="help-button"
      >
        <Icon name="sparkle" size={26} />
      </a>
      <span className="help-fab-tooltip" role="tooltip">
        <strong>Get Advanced Support:</strong> unlock personalized property analysis, custom research projects, and
        expert investment consulting
      </span>
      <button
        type="button"
        className="help-fab-dismiss"
        aria-label="Dismiss advanced support button"
        title="Dismiss"
        onClick={() => timerRef.current?.dismiss()}
        data-testid="help-button-dismiss"
      >
        <Icon name="close" size={12} />
      </button>
    </div>
  );
}
