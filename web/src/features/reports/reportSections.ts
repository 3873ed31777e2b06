import type { CoverageRequest, ReportPathField } from '@homereport/contracts';

export type ReportSection = { field: ReportPathField; title: string; description: string };

/** The four documents of a report, in the order the viewer shows them (spec section 2). */
export const REPORT_SECTIONS: ReportSection[] = [
  {
    field: 'report_path',
    title: 'Comprehensive Property Analysis',
    description: 'Valuation, condition, comparable sales and the market around the property.',
  },
  {
    field: 'strategy_path',
    title: 'Investment Strategy',
    description: 'ROI, rental potential, financing scenarios and the strategy we recommend.',
  },
  {
    field: 'school_report_path',
    title: 'School District Analysis',
    description: 'Assigned schools, ratings and what they mean for value and demand.',
  },
  {
    field: 'neighborhood_report_path',
    title: 'Neighborhood Insights',
    description: 'Safety, amenities, commute and how the neighborhood is changing.',
  },
];

/** Only the sections whose document exists, each with its link. */
export function availableSections(request: CoverageRequest): (ReportSection & { href: string })[] {
  return REPORT_SECTIONS.flatMap((section) => {
    const href = request[section.field];
    return href ? [{ ...section, href }] : [];
  });
}
