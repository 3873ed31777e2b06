import type { ZipAnalysis } from '@homereport/contracts';
import type { ComponentProps, ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { FailedScreen, StatusScreen } from '../../../components/ResultPanel';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { isZipCode } from '../../../lib/zipCodes';
import { useSession } from '../../../session/SessionProvider';
import { LOAD_ERROR, isNotFound, useZipAnalysis } from '../api/zipCodes';
import { ZipProperties } from '../components/ZipProperties';
import { DemographicsSection, MarketSection, SummarySection } from '../components/analysis/MarketSections';
import { ActionsSection, InvestmentSection, OutlookSection } from '../components/analysis/OutlookSections';
import { TrendsSection } from '../components/analysis/TrendsSection';
import { ZipHeader } from '../components/analysis/ZipHeader';
import { zipNav } from '../components/zipNav';
import '../zip.css';

/** Every section of the analysis; the optional ones only when the analysis has them. */
function Analysis({ analysis }: { analysis: ZipAnalysis }) {
  const outlook = analysis.outlook?.sixToTwelveMonths;
  return (
    <div className="container zip-sections">
      <SummarySection summary={analysis.executiveSummary} />
      <MarketSection market={analysis.marketFundamentals} />
      <DemographicsSection people={analysis.demographics} />
      {analysis.priceTrends && <TrendsSection trends={analysis.priceTrends} />}
      {analysis.investmentAnalysis && <InvestmentSection investment={analysis.investmentAnalysis} />}
      {outlook && <OutlookSection outlook={outlook} />}
      {analysis.actionableRecommendations && <ActionsSection actions={analysis.actionableRecommendations} />}
      <ZipProperties zipCode={analysis.zipCode} />

      <div className="zip-bottom-links" data-testid="zip-bottom-links">
        <Link to="/zip" className="btn btn-secondary">
          <Icon name="arrowLeft" size={18} /> Browse Other ZIP Codes
        </Link>
        <Link to="/properties" className="btn btn-secondary">
          View Property Reports
        </Link>
        <Link to="/request" className="btn btn-primary">
          Request Property Assessment
        </Link>
      </div>
    </div>
  );
}

const BROWSE_ZIPS = { to: '/zip', label: 'Browse ZIP Codes' };

/** A ZIP code page without an analysis to show: the pin in red, why, and where to go. */
function ZipProblem(props: Omit<ComponentProps<typeof StatusScreen>, 'icon' | 'tone'>) {
  return <StatusScreen {...props} icon="pin" tone="red" />;
}

export function ZipDetailPage() {
  const { zipCode = '' } = useParams();
  const { user } = useSession();
  const detail = useZipAnalysis(zipCode);
  const location = detail.data?.reportMetadata.location;
  const place = location ? `${location.city}, ${location.state}` : null;
  useDocumentTitle(
    place ? `ZIP Code ${zipCode}, ${place}` : `ZIP Code ${zipCode}`,
    `Housing market analysis of ZIP code ${zipCode}${place ? ` (${place})` : ''}: prices, trends, rental yields, demographics and outlook.`,
  );

  let body: ReactNode;
  if (detail.isPending) {
    body = <PageSpinner label="Loading ZIP code analysis" />;
  } else if (detail.isError && isNotFound(detail.error)) {
    body = (
      <>
        <section className="section">
          <ZipProblem
            testId="zip-not-found"
            title="ZIP Code Not Found"
            links={[BROWSE_ZIPS, { to: '/properties', label: 'View Property Reports' }]}
          >
            <p>ZIP code not found in our database</p>
          </ZipProblem>
        </section>
        {/* No analysis, but its properties may have reports (a malformed code is a 400: nothing to list). */}
        {isZipCode(zipCode) && (
          <div className="container zip-sections zip-sections-after-problem">
            <ZipProperties zipCode={zipCode} />
          </div>
        )}
      </>
    );
  } else if (detail.isError) {
    body = (
      <section className="section">
        <FailedScreen
          query={detail}
          what="ZIP code data"
          message={LOAD_ERROR}
          testId="zip-detail-error"
          links={[BROWSE_ZIPS]}
        />
      </section>
    );
  } else if (!detail.data) {
    body = (
      <section className="section">
        <ZipProblem testId="zip-not-available" title="ZIP Code Analysis Not Available" links={[BROWSE_ZIPS]}>
          <p>This ZIP code analysis is not available in our database.</p>
        </ZipProblem>
      </section>
    );
  } else {
    body = (
      <>
        <ZipHeader analysis={detail.data} />
        <Analysis analysis={detail.data} />
      </>
    );
  }

  return <SiteLayout nav={zipNav(Boolean(user), user?.role === 'admin')}>{body}</SiteLayout>;
}
