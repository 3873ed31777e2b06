import { Icon, type IconName } from './Icon';

/** A list of short points, each behind a tick (what a plan or a report includes). */
export function CheckList({
  items,
  icon = 'check',
  size = 18,
}: { items: readonly string[]; icon?: IconName; size?: number }) {
  return (
    <ul className="check-list">
      {items.map((item) => (
        <li key={item}>
          <Icon name={icon} size={size} /> {item}
        </li>
      ))}
    </ul>
  );
}
