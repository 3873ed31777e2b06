import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MainReport, fileDescription } from './MainReport';

const href = '/api/files/r1/report?expires=1&signature=s';

describe('the main report of the report page', () => {
  it('keeps a download link for a Word document instead of a viewer', () => {
    const html = renderToStaticMarkup(<MainReport href={href} info={{ type: 'report', format: 'docx', size: 2048 }} />);
    expect(html).toContain('data-testid="report-download-fallback"');
    expect(html).toContain('Word document');
    expect(html).not.toContain('pdf-viewer');
    expect(html).toContain(`href="${href.replace('&', '&amp;')}"`);
  });

  it('waits for the viewer for a PDF (loaded lazily), with the file one click away', () => {
    const html = renderToStaticMarkup(<MainReport href={href} info={{ type: 'report', format: 'pdf', size: 1536 }} />);
    expect(html).not.toContain('report-download-fallback');
    expect(html).toContain('Loading the report viewer');
    expect(html).toContain('Open PDF');
  });

  it('says what a file is', () => {
    expect(fileDescription({ type: 'report', format: 'pdf', size: 1536 })).toBe('PDF, 1.5 KB');
    expect(fileDescription({ type: 'strategy', format: 'doc', size: 0 })).toBe('Word document');
    expect(fileDescription({ type: 'strategy', format: null, size: 10 })).toBe('Document, 10 bytes');
  });
});
