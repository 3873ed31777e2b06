import type { ReportFileType, ReportPathField } from '@homereport/contracts';

/** Spec section 5 and 9: PDF, DOC and DOCX only. */
export const ACCEPTED_EXTENSIONS = ['.pdf', '.doc', '.docx'] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

export function isAcceptedReportFile(name: string): boolean {
  const lower = name.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/**
 * Which report a file is, from its lowercased name (spec section 5): 'strategy' first, then
 * 'school', then 'neighborhood'; anything else is the main report.
 */
export function reportFileType(name: string): ReportFileType {
  const lower = name.toLowerCase();
  if (lower.includes('strategy')) return 'strategy';
  if (lower.includes('school')) return 'school_report';
  if (lower.includes('neighborhood')) return 'neighborhood_report';
  return 'report';
}

/** The Current Files card, in its order. */
export const CURRENT_FILES: { field: ReportPathField; title: string }[] = [
  { field: 'report_path', title: 'Main Property Report' },
  { field: 'strategy_path', title: 'Investment Strategy' },
  { field: 'school_report_path', title: 'School District Report' },
  { field: 'neighborhood_report_path', title: 'Neighborhood Report' },
];

export type UploadPlan = { parts: { type: ReportFileType; file: File }[]; refused: string[] };

/** Splits a selection into multipart parts (named by type) and the names refused by extension. */
export function planUpload(files: Iterable<File>): UploadPlan {
  const plan: UploadPlan = { parts: [], refused: [] };
  for (const file of files) {
    if (isAcceptedReportFile(file.name)) plan.parts.push({ type: reportFileType(file.name), file });
    else plan.refused.push(file.name);
  }
  return plan;
}

export function uploadFormData(parts: UploadPlan['parts']): FormData {
  const form = new FormData();
  for (const { type, file } of parts) form.append(type, file, file.name);
  return form;
}
