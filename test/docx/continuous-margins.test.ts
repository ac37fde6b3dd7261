/**
 * A continuous section break that changes the left and right margins: Word and LibreOffice lay the new section out
 * between its own margins on the page it shares with the section before (a table centred in it is centred between
 * them). Read from the layout as data and, on a corpus file, from the PDF (pdftotext -bbox) against LibreOffice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { word, words } from '../engine/pdf/helpers.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

const sect = (side: number, type = ''): string =>
  `<w:sectPr>${type}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="${side}" w:bottom="1440" w:left="${side}" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>`;

test('a continuous section with narrower side margins starts its lines at its own left margin, on the same page', async () => {
  const body =
    p('Wide margins') +
    `<w:p><w:pPr>${sect(2880)}</w:pPr></w:p>` +
    p('Narrow margins', '<w:jc w:val="right"/>') +
    p('Left narrow');
  const pages = await docxPages(buildDocx({ body, sectPr: sect(720, '<w:type w:val="continuous"/>') }));
  assert.equal(pages.length, 1, 'one page: the break is continuous');
  assert.ok(Math.abs(findText(pages, 'Wide margins').x - 144) < 0.01, 'first section at its 2-inch margin');
  assert.ok(Math.abs(findText(pages, 'Left narrow').x - 36) < 0.01, 'second section at its half-inch margin');
  const right = findText(pages, 'Narrow margins');
  assert.ok(Math.abs(right.x + right.width - (595.3 - 36)) < 0.5, 'right-aligned to the second section\'s right margin');
});

test('corpus: a table in a continuous section with 0.4-inch margins sits where LibreOffice puts it (2003 Consumer Confidence Report)', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const result = compileTemplate({ kind: 'docx', bytes: fs.readFileSync(path.join(CORPUS, 'oxsdk__2003_Consumer_Confidence_Report.docx')) });
  if (!result.ok) throw new Error('refused');
  const all = words((await renderPdf(result.template, {})).bytes);
  // LibreOffice 7.4: "Microbiological" at x 37.9, "Typical" at x 440.4 (the 7-column table is centred between
  // the 0.4-inch margins; between the first section's 0.8-inch ones it was squeezed to the narrower text width).
  assert.ok(Math.abs(word(all, 'Microbiological').xMin - 37.9) < 1, `Microbiological at ${word(all, 'Microbiological').xMin}`);
  assert.ok(Math.abs(word(all, 'Typical').xMin - 440.4) < 1, `Typical at ${word(all, 'Typical').xMin}`);
});
