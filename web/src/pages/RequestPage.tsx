import { ComingSoon } from '../components/ComingSoon';

export function RequestPage() {
  return (
    <ComingSoon
      title="Request Coverage"
      icon="file"
      description="Ask our analysts to assess any U.S. residential property. Requests are reviewed within 24 hours and reports delivered within 3-5 business days."
    />
  );
}
