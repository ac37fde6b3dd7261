/**
 * The page numbers page fields show (Word's w:pgNumType on each section, model `Section.pageNumbers`): a section
 * that starts a page with a `start` restarts the count there, others go on from the page before; each page's
 * number is written in the format of the section it belongs to (decimal, roman, letters).
 */
import type { Section } from '../../model/types.js';
import { formatCounter } from '../layout/number-formats.js';

export interface PageLabel {
  number: number;
  text: string;
}

/** Labels of pages 1..pages, given each section's first page (`starts`, ascending as the flow made them). */
export function pageLabels(sections: Section[], starts: number[], pages: number): PageLabel[] {
  const out: PageLabel[] = [];
  let s = 0;
  let n = 0;
  for (let page = 1; page <= pages; page++) {
    let restart: number | undefined;
    while (s + 1 < starts.length && starts[s + 1] <= page) {
      s++;
      // A continuous section begins on a page the section before already numbered: it does not restart it.
      const start = sections[s]?.pageNumbers?.start;
      if (starts[s] === page && sections[s]?.continuous !== true && typeof start === 'number' && Number.isFinite(start)) restart = start;
    }
    if (page === 1) {
      const start = sections[0]?.pageNumbers?.start;
      if (typeof start === 'number' && Number.isFinite(start)) restart ??= start;
    }
    n = restart ?? n + 1;
    const format = sections[s]?.pageNumbers?.format;
    out.push({ number: n, text: format ? formatCounter(n, format) : String(n) });
  }
  return out;
}
