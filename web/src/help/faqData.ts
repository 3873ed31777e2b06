import type { FaqCategory } from './searchFaq';

/**
 * Help center answers. Every statement here must stay true of the product: credits and
 * turnaround follow shared/spec/product-spec.md sections 1 and 9 and the credit rules in
 * shared/design/api.md.
 */
export const faqCategories: FaqCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    items: [
      {
        id: 'what-is-homereport',
        question: 'What is HomeReport?',
        answer:
          'HomeReport produces on-demand assessment reports for U.S. residential properties, for home buyers and investors. Each report combines AI-powered analysis with the judgement of our property analysts and covers valuation, investment strategy, market insights, school and neighborhood data, and ROI and rental potential.',
      },
      {
        id: 'request-a-property',
        question: 'How do I get a report for a specific property?',
        answer:
          'Open the Request Coverage form, enter the property address and, if you have them, a listing link and any notes for our analysts. You do not need an account to send a request. Our team reviews every request within 24 hours and delivers the report within 3-5 business days.',
      },
      {
        id: 'need-an-account',
        question: 'Do I need an account?',
        answer:
          'You can browse the list of completed reports and ZIP code analyses, request coverage, and read the help pages without an account. To open full property reports and ZIP code analyses you need a free account: register with your email address and a password, then confirm your email address from the link we send you.',
      },
      {
        id: 'when-is-my-report-ready',
        question: 'How will I know when a report is ready?',
        answer:
          'Completed reports appear on the Browse Reports page. If you were signed in when you sent the request, we also email you when the report is ready.',
      },
    ],
  },
  {
    id: 'account-billing',
    title: 'Account & Billing',
    items: [
      {
        id: 'how-credits-work',
        question: 'How do report credits work?',
        answer:
          'Every account receives 10 free report credits per 30-day period. Opening a report you have not viewed during the current period uses one credit. Opening the same report again during that period is free, so you can come back to it as often as you like.',
      },
      {
        id: 'credits-carry-over',
        question: 'Do unused credits carry over?',
        answer:
          'No. Unused credits do not carry over: your balance is set back to 10 credits at the start of each new 30-day period. Your dashboard shows the credits you have left and the date of the next refresh.',
      },
      {
        id: 'out-of-credits',
        question: 'What happens when I run out of credits?',
        answer:
          'You can still re-open any report you already viewed in the current period. New reports become available again when your credits refresh. If you need more reports than that, contact us about our premium packages.',
      },
      {
        id: 'verify-email',
        question: 'Why do I have to verify my email address?',
        answer:
          'Every account must confirm its email address before it can sign in, so that reports and notifications reach the right person. We send a verification link when you register; if it did not arrive, you can ask for a new one from the sign-in page.',
      },
      {
        id: 'forgot-password',
        question: 'I forgot my password. What should I do?',
        answer:
          'Choose "Forgot password?" on the sign-in page and enter your email address. We email you a link to choose a new password; the link expires in 1 hour. Setting a new password signs you out everywhere else.',
      },
    ],
  },
  {
    id: 'reports-data',
    title: 'Reports & Data',
    items: [
      {
        id: 'report-contents',
        question: 'What does a property report include?',
        answer:
          'A full report can include a comprehensive property analysis with valuation, an investment strategy, a school district analysis and neighborhood insights, together with ROI and rental potential. Any notes from our analysts appear at the end of the report.',
      },
      {
        id: 'data-sources',
        question: 'Where does your data come from?',
        answer:
          'We combine public records, MLS listings and current market data. AI analysis processes that data and our human experts review the results before a report is delivered.',
      },
      {
        id: 'zip-analyses',
        question: 'What is a ZIP code analysis?',
        answer:
          'A market report for a whole ZIP code: median price and appreciation, inventory, demographics, rental market and yields, risk level and a 6-12 month outlook. Markets are grouped into investment tiers: Tier 1 Ultra-Premium, Tier 2 High-Growth and Tier 3 Emerging.',
      },
      {
        id: 'is-it-an-appraisal',
        question: 'Is a report the same as an appraisal?',
        answer:
          'No. Our reports are research to help you decide, not a licensed appraisal or an inspection. Lenders usually require their own appraisal, and we recommend a professional inspection before you buy.',
      },
    ],
  },
  {
    id: 'technical-support',
    title: 'Technical Support',
    items: [
      {
        id: 'no-verification-email',
        question: "I didn't receive my verification email.",
        answer:
          'Check your spam or promotions folder first. If it is not there, try to sign in: the sign-in page offers a "Resend verification email" button for accounts that are not verified yet.',
      },
      {
        id: 'open-documents',
        question: 'How do I open the documents in a report?',
        answer:
          'Each section of a report opens its document in a new browser tab. For your security the document links are short-lived; if a link has stopped working, reload the report page to get fresh ones. Re-opening a report you viewed this period does not use another credit.',
      },
      {
        id: 'signed-out',
        question: 'Why was I signed out?',
        answer:
          'You are signed out when you choose Sign Out, when your session expires, or when the password of your account is reset, which ends every other session. Sign in again to continue.',
      },
      {
        id: 'browsers',
        question: 'Which browsers and devices are supported?',
        answer:
          'HomeReport works in current versions of Chrome, Edge, Firefox and Safari, on desktop computers, tablets and phones.',
      },
    ],
  },
];
