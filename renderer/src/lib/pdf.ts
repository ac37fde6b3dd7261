/**
 * pdf.js, loaded on first use from the bundle (its own chunk), with its worker bundled as a file served from
 * 'self' — no CDN. `isEvalSupported: false` keeps it within the CSP (script-src 'self', no eval); the standard
 * font data ships in the bundle too (see vite.config.ts).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';

type Pdfjs = typeof import('pdfjs-dist');

let loading: Promise<Pdfjs> | null = null;

export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  return loading;
}

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  return pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    standardFontDataUrl: new URL('pdfjs/standard_fonts/', document.baseURI).href,
    // Fonts come from the PDF or the bundled standard fonts, never from the system: previews look the same everywhere.
    useSystemFonts: false,
    enableXfa: false,
  }).promise;
}
