import {
  ADDRESS_MAX_LENGTH,
  type CoverageRequest,
  type CreateRequestReply,
  NOTES_MAX_LENGTH,
  URL_MAX_LENGTH,
} from '@homereport/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { CheckList } from '../../../components/CheckList';
import { TextAreaField, TextField } from '../../../components/Field';
import { PendingButton, ProblemAlert, useFormFields } from '../../../components/Form';
import { Icon } from '../../../components/Icon';
import { ResultPanel } from '../../../components/ResultPanel';
import type { NavItem } from '../../../components/SiteHeader';
import { SiteLayout } from '../../../components/SiteLayout';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { formatLongDate } from '../../../lib/dates';
import { useSession } from '../../../session/SessionProvider';
import { problemOfError } from '../../../session/formProblem';
import { useCreateRequest } from '../api/createRequest';
import { canSubmitRequest, emptyRequestForm, toCreateRequestBody } from '../requestForm';
import '../requests.css';

const included = [
  'Comprehensive property valuation and market analysis',
  'Investment strategy with ROI and rental potential',
  'School district analysis',
  'Neighborhood insights and local market trends',
  'Reviewed by our expert team',
  'Delivered within 3-5 business days',
];

const nextSteps = [
  { title: 'Review', text: 'Our team reviews your request within 24 hours.' },
  {
    title: 'Analysis',
    text: 'Our analysts research the property, combining AI-powered analysis with human expertise.',
  },
  { title: 'Report', text: 'Your report is completed within 3-5 business days.' },
  {
    title: 'Delivery',
    text: 'The report appears under Browse Reports; signed-in requesters also get an email when it is ready.',
  },
];

function navFor(signedIn: boolean, isAdmin: boolean): NavItem[] {
  const back: NavItem = { to: '/', label: 'Back to Home', icon: 'arrowLeft' };
  if (signedIn) return [back, { to: isAdmin ? '/admin' : '/dashboard', label: 'Dashboard', kind: 'primary' }];
  return [
    back,
    { to: '/login', label: 'Sign In', kind: 'ghost' },
    { to: '/register', label: 'Get Started', kind: 'primary' },
  ];
}

/** A repeat: the requester's own earlier request for this property, nothing new recorded. */
function AlreadyRequestedPanel({ request }: { request: CoverageRequest }) {
  const covered = request.status === 'covered';
  return (
    <ResultPanel testId="request-repeat" className="card request-success" icon="clock" title="Already Requested">
      <p data-testid="request-repeat-text">
        You asked about this property on{' '}
        <Link
          to={covered ? `/report/${encodeURIComponent(request.id)}` : '/dashboard'}
          data-testid="request-repeat-link"
        >
          {formatLongDate(request.created_at)}
        </Link>
        : <strong>{request.address}</strong>.
      </p>
      <p className="muted">
        {covered
          ? 'Its report is ready: open it from the link above.'
          : 'It is still being prepared; we will email you when the report is ready. Your dashboard shows its status.'}
      </p>
      <div className="actions center">
        <Link to="/dashboard" className="btn btn-primary" data-testid="request-repeat-dashboard">
          Go to Dashboard
        </Link>
      </div>
    </ResultPanel>
  );
}

function SubmittedPanel({ reply }: { reply: CreateRequestReply }) {
  if (reply.duplicate_of) return <AlreadyRequestedPanel request={reply.request} />;
  return (
    <ResultPanel
      testId="request-success"
      className="card request-success"
      icon="checkCircle"
      title="Request Submitted Successfully!"
    >
      {reply.request?.address && (
        <p>
          We received your request for <strong data-testid="request-success-address">{reply.request.address}</strong>.
        </p>
      )}
      <div className="next-steps">
        <h2>What happens next?</h2>
        <ol>
          {nextSteps.map((step) => (
            <li key={step.title}>
              <strong>{step.title}.</strong> {step.text}
            </li>
          ))}
        </ol>
      </div>
      <div className="actions center">
        <Link to="/" className="btn btn-primary" data-testid="request-return-home">
          Return to Home
        </Link>
        <Link to="/properties" className="btn btn-secondary" data-testid="request-browse">
          Browse Existing Reports
        </Link>
      </div>
    </ResultPanel>
  );
}

const PROBLEM_ID = 'request-problem';

export function RequestPage() {
  useDocumentTitle(
    'Request Coverage',
    'Ask for an expert assessment of any U.S. home: valuation, rental potential, schools and neighborhood, delivered in 3-5 business days. No account needed.',
  );
  const { user } = useSession();
  const [submitted, setSubmitted] = useState<CreateRequestReply | null>(null);
  const create = useCreateRequest();
  const { values, setValues, field } = useFormFields(emptyRequestForm, {
    idPrefix: 'request',
    problem: problemOfError(create.error),
    problemId: PROBLEM_ID,
    maxLength: { address: ADDRESS_MAX_LENGTH, url: URL_MAX_LENGTH, notes: NOTES_MAX_LENGTH },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canSubmitRequest(values, create.isPending)) return;
    create.mutate(toCreateRequestBody(values), {
      onSuccess: (reply) => {
        setValues(emptyRequestForm);
        setSubmitted(reply);
        window.scrollTo({ top: 0, behavior: 'smooth' });
      },
    });
  }

  return (
    <SiteLayout nav={navFor(Boolean(user), user?.role === 'admin')}>
      <section className="section section-tight">
        <div className="container">
          {submitted ? (
            <div className="narrow-panel">
              <SubmittedPanel reply={submitted} />
            </div>
          ) : (
            <>
              <div className="page-heading">
                <p className="eyebrow">Request Coverage</p>
                <h1>Request a Property Assessment</h1>
                <p className="muted">
                  Tell us which U.S. property you are considering. No account needed: we review every request within 24
                  hours and deliver the report within 3-5 business days.
                </p>
              </div>
              <div className="request-layout">
                <div className="card form-card">
                  <ProblemAlert problem={create.error} id={PROBLEM_ID} testId="request-error" />
                  <form className="form" onSubmit={handleSubmit} data-testid="request-form">
                    <TextField
                      {...field('address')}
                      label="Property Address"
                      autoComplete="street-address"
                      required
                      placeholder="123 Main Street, Austin, TX 78701"
                    />
                    <TextField
                      {...field('url')}
                      label="Listing URL (optional)"
                      type="url"
                      placeholder="https://www.zillow.com/homedetails/..."
                    />
                    <TextAreaField
                      {...field('notes')}
                      label="Additional Notes (optional)"
                      rows={4}
                      placeholder="Anything we should know: your goals, timeline, specific questions about the property."
                    />
                    <PendingButton
                      pending={create.isPending}
                      pendingLabel="Submitting Request..."
                      disabled={!canSubmitRequest(values, create.isPending)}
                      testId="request-submit"
                    >
                      <Icon name="send" size={18} /> Submit Request
                    </PendingButton>
                  </form>
                </div>
                <aside className="card included-card">
                  <h2 className="card-title">
                    <Icon name="file" /> What's Included
                  </h2>
                  <CheckList items={included} />
                  {!user && (
                    <p className="muted included-note">
                      <Link to="/register">Create a free account</Link> to track your requests and get an email when the
                      report is ready.
                    </p>
                  )}
                </aside>
              </div>
            </>
          )}
        </div>
      </section>
    </SiteLayout>
  );
}
