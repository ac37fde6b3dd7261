/**
 * Delimiters for rendering a real Word file as a static document (the corpus measurement and bench/docx-ab.ts):
 * a pair neither of which occurs in any part of the package (nor in its raw bytes), so no text becomes a tag.
 */
import { unzipSync, strFromU8 } from 'fflate';

const CANDIDATES: [string, string][] = [
  ['⟦⟦', '⟧⟧'],
  ['⸨⸨', '⸩⸩'],
  ['«««', '»»»'],
  ['[[[#', '#]]]'],
  ['{{{@', '@}}}'],
];

export function delimitersFor(bytes: Uint8Array): [string, string] {
  let text: string;
  try {
    const parts = unzipSync(bytes);
    text = Object.values(parts).map((p) => strFromU8(p, true)).join('\n');
  } catch {
    text = strFromU8(bytes, true);
  }
  for (const [open, close] of CANDIDATES) {
    if (!text.includes(open) && !text.includes(close)) return [open, close];
  }
  return CANDIDATES[0];
}
