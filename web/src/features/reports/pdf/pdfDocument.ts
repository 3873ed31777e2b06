import type { PDFDocumentLoadingTask } from 'pdfjs-dist';
// The worker is its own file in the build (an asset fetched by the browser when the first PDF
// opens), never inlined into a chunk: PDF parsing runs off the page's main thread.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * PDF.js, fetched the first time a report is shown inline: this module is imported only by
 * PdfViewer, itself loaded lazily by the report page, so no other page downloads it.
 */
export async function openPdf(url: string): Promise<PDFDocumentLoadingTask> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  // Signed same-origin links (connect-src 'self'); fonts a PDF does not embed fall back to the
  // system's (the default in browsers), so nothing is fetched from elsewhere.
  return pdfjs.getDocument({ url, useWasm: false });
}

export type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';

/** The text layer over a rendered page (selectable text, read by screen readers). */
export async function textLayerClass() {
  return (await import('pdfjs-dist')).TextLayer;
}
