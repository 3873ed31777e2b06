import { Icon } from '../components/Icon';
import './session.css';

/** A short, dismissible message at the top of every page: the session ended by itself. */
export function SessionNotice({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <output className="session-notice" data-testid="session-notice">
      <Icon name="alert" size={18} />
      <span>{message}</span>
      <button type="button" className="session-notice-dismiss" onClick={onDismiss} aria-label="Dismiss this message">
        ×
      </button>
    </output>
  );
}
