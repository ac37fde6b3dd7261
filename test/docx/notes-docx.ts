/** Small .docx files with footnotes and endnotes for the notes tests: parts, references, the package. */
import { buildDocx, escapeXml, W_NS } from './build-docx.js';

const REF_STYLE = '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>';

export function notesPart(kind: 'footnote' | 'endnote', notes: Record<string, string>): string {
  const tag = `w:${kind}s`;
  const ref = kind === 'footnote' ? '<w:footnoteRef/>' : '<w:endnoteRef/>';
  const separator = `<w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}>`;
  const body = Object.entries(notes)
    .map(([id, text]) => `<w:${kind} w:id="${id}"><w:p><w:r>${REF_STYLE}${ref}</w:r><w:r><w:t xml:space="preserve"> ${escapeXml(text)}</w:t></w:r></w:p></w:${kind}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><${tag} ${W_NS}>${separator}${body}</${tag}>`;
}

/** A body paragraph: text, then a reference (no run style: the mark is made superscript anyway). */
export function withRef(text: string, kind: 'footnote' | 'endnote', id: string): string {
  const ref = kind === 'footnote' ? 'w:footnoteReference' : 'w:endnoteReference';
  return `<w:p><w:r><w:t>${escapeXml(text)}</w:t></w:r><w:r><${ref} w:id="${id}"/></w:r></w:p>`;
}

export function docx(body: string, footnotes: Record<string, string>, endnotes: Record<string, string>, settings?: string): Uint8Array {
  return buildDocx({
    body,
    settings,
    rels: { rIdFoot: ['footnotes', 'footnotes.xml'], rIdEnd: ['endnotes', 'endnotes.xml'] },
    extra: { 'word/footnotes.xml': notesPart('footnote', footnotes), 'word/endnotes.xml': notesPart('endnote', endnotes) },
  });
}
