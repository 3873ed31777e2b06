import { useParams } from 'react-router-dom';
import { ComingSoon } from '../components/ComingSoon';

export function ReportPage() {
  const { id = '' } = useParams();
  return (
    <ComingSoon
      title="Property Report"
      icon="file"
      description={`The report viewer for request ${id}: property analysis, investment strategy, schools and neighborhood.`}
    />
  );
}
