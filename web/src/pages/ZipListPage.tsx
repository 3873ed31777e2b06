import { ComingSoon } from '../components/ComingSoon';

export function ZipListPage() {
  return (
    <ComingSoon
      title="ZIP Code Analysis"
      icon="pin"
      description="Market analyses by ZIP code: prices, appreciation, demographics and investment tiers."
    />
  );
}
