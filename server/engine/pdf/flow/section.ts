/**
 * Page geometry of a section: page size (clamped to what PDF allows), margins, and the content box once
 * headers and footers taller than their margin push the body in (as Word does).
 */
import type { Block, HeaderFooterSet, PageSetup, Section } from '../../model/types.js';
import { num } from '../layout/fmt.js';
import type { LaidBlock } from '../layout/items.js';

export interface PageGeometry {
  width: number;
  height: number;
  /** Content box: x from left to right, y from top to bottom. */
  left: number;
  right: number;
  top: number;
  bottom: number;
  headerDistance: number;
  footerDistance: number;
}

/** A4 portrait, 1-inch margins: used when a section's page setup is missing or unusable. */
const A4 = { width: 595.28, height: 841.89 };
const MIN_PAGE = 72;
/** jsPDF (and PDF viewers) cap a page side at 200 inches. */
const MAX_PAGE = 14400;
const MIN_CONTENT = 36;

export function baseGeometry(page: PageSetup | undefined): PageGeometry {
  const width = Math.min(Math.max(num(page?.width, A4.width), MIN_PAGE), MAX_PAGE);
  const height = Math.min(Math.max(num(page?.height, A4.height), MIN_PAGE), MAX_PAGE);
  const m = page?.margins;
  let left = Math.max(0, num(m?.left, 72));
  let right = Math.max(0, num(m?.right, 72));
  let top = Math.max(0, num(m?.top, 72));
  let bottom = Math.max(0, num(m?.bottom, 72));
  // Margins leaving no room for content shrink proportionally.
  if (left + right > width - MIN_CONTENT) {
    const k = (width - MIN_CONTENT) / (left + right);
    left *= k;
    right *= k;
  }
  if (top + bottom > height - MIN_CONTENT) {
    const k = (height - MIN_CONTENT) / (top + bottom);
    top *= k;
    bottom *= k;
  }
  return {
    width,
    height,
    left,
    right: width - right,
    top,
    bottom: height - bottom,
    headerDistance: Math.min(Math.max(0, num(page?.headerDistance, 36)), height / 2),
    footerDistance: Math.min(Math.max(0, num(page?.footerDistance, 36)), height / 2),
  };
}

/**
 * Which header/footer a page uses: `first` on a title page's first page, `even` on pages whose number (as page
 * fields show it, `pageNumber`) is even, when given.
 */
export function variantFor(section: Section, indexInSection: number, pageNumber: number, set: HeaderFooterSet | undefined): Block[] | undefined {
  if (!set || typeof set !== 'object') return undefined;
  if (indexInSection === 0 && section.titlePage === true) return set.first;
  if (pageNumber % 2 === 0 && Array.isArray(set.even)) return set.even;
  return set.default;
}

/** Pushes the content box in where the tallest header/footer of the section reaches past its margin. */
export function withHeaderFooter(geo: PageGeometry, headerHeight: number, footerHeight: number): PageGeometry {
  const maxShare = (geo.bottom - geo.top) / 2;
  // A section without a header (or footer) keeps its margin, even one smaller than the header distance.
  const top = headerHeight > 0 ? Math.max(geo.top, Math.min(geo.headerDistance + headerHeight, geo.top + maxShare)) : geo.top;
  const bottom = footerHeight > 0 ? Math.min(geo.bottom, Math.max(geo.height - geo.footerDistance - footerHeight, geo.bottom - maxShare)) : geo.bottom;
  return { ...geo, top, bottom: Math.max(bottom, top + MIN_CONTENT) };
}

export interface LaidHeaderFooter {
  blocks: LaidBlock[];
  height: number;
  hasFields: boolean;
  source: Block[];
  /** It holds floats behind the text (painted under the body: render.ts). */
  hasBehind?: boolean;
}
