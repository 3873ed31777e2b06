import { describe, expect, it } from 'vitest';
import { isAcceptedReportFile, planUpload, reportFileType, uploadFormData } from './reportFiles';

describe('report file type from the file name', () => {
  it('reads the lowercased name', () => {
    expect(reportFileType('Investment-STRATEGY.pdf')).toBe('strategy');
    expect(reportFileType('School_District.docx')).toBe('school_report');
    expect(reportFileType('NEIGHBORHOOD insights.doc')).toBe('neighborhood_report');
    expect(reportFileType('123 Main St.pdf')).toBe('report');
  });

  it("checks 'strategy', then 'school', then 'neighborhood'", () => {
    expect(reportFileType('school-strategy.pdf')).toBe('strategy');
    expect(reportFileType('neighborhood-school.pdf')).toBe('school_report');
    expect(reportFileType('neighborhood-strategy.pdf')).toBe('strategy');
  });

  it('makes anything else the main report', () => {
    expect(reportFileType('report.pdf')).toBe('report');
    expect(reportFileType('neighbourhood.pdf')).toBe('report');
  });
});

describe('accepted files', () => {
  it('accepts .pdf, .doc and .docx in any case', () => {
    for (const name of ['a.pdf', 'b.DOC', 'c.Docx']) expect(isAcceptedReportFile(name)).toBe(true);
  });

  it('refuses other extensions', () => {
    for (const name of ['a.txt', 'b.pdf.exe', 'docx', 'c.png', 'd.pd']) expect(isAcceptedReportFile(name)).toBe(false);
  });

  it('plans one part per accepted file, named by its type, and lists the refused names', () => {
    const files = [new File(['a'], 'main.pdf'), new File(['b'], 'notes.txt'), new File(['c'], 'School.docx')];
    const plan = planUpload(files);
    expect(plan.parts.map((p) => [p.type, p.file.name])).toEqual([
      ['report', 'main.pdf'],
      ['school_report', 'School.docx'],
    ]);
    expect(plan.refused).toEqual(['notes.txt']);
    const form = uploadFormData(plan.parts);
    expect([...form.keys()]).toEqual(['report', 'school_report']);
    expect((form.get('school_report') as File).name).toBe('School.docx');
  });
});
