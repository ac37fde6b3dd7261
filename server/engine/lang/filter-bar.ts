/**
 * Where a tag's filters start: the first `|` that is not part of `||` and not inside quotes. Filters are the
 * lowest step of the grammar (`{{hours * rate | number:2}}`), as in docxtemplater's expressions.
 */
import { QUOTES } from './lexer.js';

export function findFilterBar(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const closers = QUOTES[ch];
    if (closers !== undefined) {
      let j = i + 1;
      while (j < text.length && !closers.includes(text[j])) j++;
      i = j;
      continue;
    }
    if (ch !== '|') continue;
    if (text[i + 1] === '|') {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}
