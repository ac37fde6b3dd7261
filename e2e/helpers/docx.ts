/**
 * Writes a minimal Word document (the parts Word itself needs: content types, package relationships and the
 * main document), so the GUI tests import a real .docx without keeping binary fixtures in the repository.
 */
import { strToU8, zipSync } from 'fflate';

/** A paragraph of text, or a table given as rows of cell texts. */
export type DocxBlock = string | { table: string[][] };

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function paragraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

function table(rows: string[][]): string {
  const columns = Math.max(...rows.map((r) => r.length));
  const width = Math.floor(9000 / columns);
  const grid = `<w:tblGrid>${`<w:gridCol w:w="${width}"/>`.repeat(columns)}</w:tblGrid>`;
  const body = rows
    .map((cells) => `<w:tr>${cells.map((c) => `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${paragraph(c)}</w:tc>`).join('')}</w:tr>`)
    .join('');
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((side) => `<w:${side} w:val="single" w:sz="4" w:color="000000"/>`).join('');
  return `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:tblBorders>${borders}</w:tblBorders></w:tblPr>${grid}${body}</w:tbl>`;
}

export function buildDocx(blocks: DocxBlock[]): Uint8Array {
  const content = blocks.map((b) => (typeof b === 'string' ? paragraph(b) : table(b.table))).join('');
  const document =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
    `<w:document xmlns:w="${W}"><w:body>${content}` +
    `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>` +
    `</w:body></w:document>`;
  const contentTypes =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
    `</Types>`;
  const rels =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
    `</Relationships>`;
  // A fixed date keeps the bytes the same from one call to the next (tests compare downloads with them).
  return zipSync(
    {
      '[Content_Types].xml': strToU8(contentTypes),
      '_rels/.rels': strToU8(rels),
      'word/document.xml': strToU8(document),
    },
    { mtime: new Date('2026-01-01T00:00:00Z') },
  );
}

/** The invoice the GUI tests use: every kind of field (text, dotted text, image, list, table, condition). */
export function invoiceTemplate(): Uint8Array {
  return buildDocx([
    'Invoice {{number}}',
    'Customer: {{customer.name}}',
    '{{%logo}}',
    '{{#notes}}Note: {{note}}{{/notes}}',
    {
      table: [
        ['Description', 'Quantity'],
        ['{{#items}}{{description}}', '{{qty}}{{/items}}'],
      ],
    },
    '{{#paid}}PAID IN FULL{{/paid}}',
    '{{^paid}}Payment is due within 30 days.{{/paid}}',
  ]);
}

/** A template with mistakes: a loop never closed and a tag never finished. */
export function brokenTemplate(): Uint8Array {
  return buildDocx(['Dear {{name}},', '{{#items}}{{description}}', 'Total: {{total', 'Thanks.']);
}
