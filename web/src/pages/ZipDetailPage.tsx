import { useParams } from 'react-router-dom';
import { ComingSoon } from '../components/ComingSoon';

export function ZipDetailPage() {
  const { zipCode = '' } = useParams();
  return (
    <ComingSoon
      title={`ZIP Code ${zipCode}`}
      icon="pin"
      description={`The full market analysis for ZIP code ${zipCode}.`}
    />
  );
}
