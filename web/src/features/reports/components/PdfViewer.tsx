import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/Spinner';
import { type PDFDocumentProxy, type RenderTask, openPdf, textLayerClass } from '../pdf/pdfDocument';
import './pdfViewer.css';

/** Widths closer than this draw the same page again for nothing (a scrollbar coming and going). */
const WIDTH_STEP = 8;

/** The link's file: a signed link renews its query string on every view, the file stays. */
const fileOf = (url: string) => url.split('?')[0] ?? url;

/**
 * A PDF drawn in the page with PDF.js (loaded with this module, which the report page loads
 * lazily): one page at a time, as wide as its frame, on a canvas with the page's text over it
 * (selectable, and what a screen reader reads), with Previous and Next. A document that cannot be
 * read or drawn shows `fallback` instead (the download link), never an empty frame.
 */
export default function PdfViewer({ url, title, fallback }: { url: string; title: string; fallback: ReactNode }) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [pageNumber, setPageNumber] = useState(1);
  const [renderedPage, setRenderedPage] = useState(0);
  const [width, setWidth] = useState(0);
  const frameRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  // The newest link opens the file; a renewed signature alone does not reload it.
  const latestUrl = useRef(url);
  latestUrl.current = url;
  const file = fileOf(url);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | null = null;
    setDoc(null);
    setFailed(false);
    setPageNumber(1);
    setRenderedPage(0);
    openPdf(latestUrl.current)
      .then((task) => {
        destroy = () => task.destroy();
        return task.promise;
      })
      .then((opened) => {
        if (!cancelled) setDoc(opened);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        console.warn(`The report (${file}) could not be shown in the page`, err);
        setFailed(true);
      });
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [file]);

  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor((entry?.contentRect.width ?? 0) / WIDTH_STEP) * WIDTH_STEP;
      setWidth((current) => (next === current ? current : next));
    });
    observer.observe(frame);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const text = textRef.current;
    if (!doc || !canvas || !text || width === 0) return;
    let cancelled = false;
    let render: RenderTask | null = null;
    let cancelText: (() => void) | null = null;
    (async () => {
      const page = await doc.getPage(pageNumber);
      if (cancelled) return;
      const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
      // Drawn at the screen's pixel density, shown at the frame's width (CSS keeps the ratio).
      const density = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * density);
      canvas.height = Math.floor(viewport.height * density);
      render = page.render({
        canvas,
        viewport,
        transform: density === 1 ? undefined : [density, 0, 0, density, 0, 0],
      });
      await render.promise;
      if (cancelled) return;
      const TextLayer = await textLayerClass();
      if (cancelled) return;
      text.replaceChildren();
      text.style.setProperty('--total-scale-factor', String(viewport.scale));
      const layer = new TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport });
      cancelText = () => layer.cancel();
      await layer.render();
      if (!cancelled) setRenderedPage(pageNumber);
    })().catch((err: unknown) => {
      // A newer page or width took over: not a failure.
      if (cancelled || (err instanceof Error && err.name === 'RenderingCancelledException')) return;
      console.warn('A page of the report could not be drawn', err);
      setFailed(true);
    });
    return () => {
      cancelled = true;
      render?.cancel();
      cancelText?.();
    };
  }, [doc, pageNumber, width]);

  if (failed) return <>{fallback}</>;

  const pages = doc?.numPages ?? 0;
  const ready = renderedPage === pageNumber;
  return (
    <div className="pdf-viewer" data-testid="pdf-viewer">
      <div className={ready ? 'pdf-frame' : 'pdf-frame pdf-frame-waiting'} ref={frameRef}>
        {!ready && (
          <div className="pdf-loading">
            <Spinner label={doc ? `Drawing page ${pageNumber}` : 'Opening the report'} />
          </div>
        )}
        <div className="pdf-page" data-testid="pdf-page" data-rendered-page={ready ? pageNumber : undefined}>
          <canvas ref={canvasRef} className="pdf-canvas" data-testid="pdf-canvas" />
          <div
            ref={textRef}
            className="pdf-text-layer"
            role="document"
            aria-label={`${title}, page ${pageNumber}${pages ? ` of ${pages}` : ''}`}
            data-testid="pdf-text"
          />
        </div>
      </div>
      {pages > 1 && (
        <nav className="pdf-pager" aria-label={`Pages of the ${title}`}>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setPageNumber((n) => Math.max(1, n - 1))}
            disabled={pageNumber <= 1}
            data-testid="pdf-previous"
          >
            <span aria-hidden="true">←</span> Previous
          </button>
          <output className="pdf-page-count" aria-live="polite" data-testid="pdf-page-number">
            Page {pageNumber} of {pages}
          </output>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setPageNumber((n) => Math.min(pages, n + 1))}
            disabled={pageNumber >= pages}
            data-testid="pdf-next"
          >
            Next <span aria-hidden="true">→</span>
          </button>
        </nav>
      )}
    </div>
  );
}
