import { Icon } from '../Icon';

/** Shows or hides the map above a list; a toggle button, so a screen reader says whether it is on. */
export function MapToggle({ shown, onChange }: { shown: boolean; onChange: (shown: boolean) => void }) {
  return (
    <button
      type="button"
      className={`btn btn-sm ${shown ? 'btn-primary' : 'btn-secondary'}`}
      aria-pressed={shown}
      onClick={() => onChange(!shown)}
      data-testid="map-toggle"
    >
      <Icon name="pin" size={16} /> Map
    </button>
  );
}
