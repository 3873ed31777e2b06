import { ComingSoon } from '../components/ComingSoon';

export function PropertiesPage() {
  return (
    <ComingSoon
      title="Browse Reports"
      icon="home"
      description="Every property our team has assessed, with its completed report."
    />
  );
}
