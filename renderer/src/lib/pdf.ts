/**
 * pdf.js, loaded on first use from the bundle (its own chunk), with its worker bundled as a file served from
 * 'self' — no CDN. `isEvalSupported: false` keeps it within the CSP (script-src 'self', no eval); the standard
 * font data ships in the bundle too (see vite.config.ts).
 *
 * One worker for the page's life: every preview (one per keystroke or so) opens its PDF in it, instead of pdf.js
 * starting a worker per document (a new thread and a module load each time).
 */
import type { PDFDocumentProxy, PDFWorker } from 'pdfjs-dist';

type Pdfjs = typeof import('pdfjs-dist');

let loading: Promise<Pdfjs> | null = null;
let worker: PDFWorker | null = null;

export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([pdfjs, url]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = url.default;
    return pdfjs;
  });
  return loading;
}

/** The page's one pdf.js worker (made again if it was ever destroyed). */
function sharedWorker(pdfjs: Pdfjs): PDFWorker {
  if (!worker || worker.destroyed) worker = new pdfjs.PDFWorker();
  return worker;
}

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  return pdfjs.getDocument({
    data: bytes,
    worker: sharedWorker(pdfjs),
    isEvalSupported: false,
    standardFontDataUrl: new URL('pdfjs/standard_fonts/', document.baseURI).href,
    // Fonts come from the PDF or the bundled standard fonts, never from the system: previews look the same everywhere.
    useSystemFonts: false,
    // Glyphs drawn as paths, not through @font-face: adding and removing each preview's fonts in document.fonts
    // restyles the whole page (hundreds of ms beside a 200-row editor), on every keystroke.
    disableFontFace: true,
    enableXfa: false,
  }).promise;
}

/**
 * pdf.js's text layer measures text on a canvas it appends to <body> (`.hiddenCanvasElement`), outside every
 * landmark; it shows nothing, so it is hidden from assistive technology (axe's "region" rule).
 */
export function hideMeasuringCanvases(): void {
  for (const canvas of document.querySelectorAll('body > canvas.hiddenCanvasElement:not([aria-hidden])')) canvas.setAttribute('aria-hidden', 'true');
}
