/**
 * A title page's own header (w:titlePg) moves the body down on that page only: the following pages, which use the
 * default header (here none), start at their top margin, as Word and LibreOffice lay them out.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { buildDocx, p } from './build-docx.js';

const SECT =
  '<w:sectPr><w:headerReference w:type="first" r:id="rId_header1"/><w:pgSz w:w="11906" w:h="16838"/>' +
  '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:titlePg/></w:sectPr>';

test("a title page's tall header pushes down the body of the first page only", async () => {
  const header = Array.from({ length: 12 }, (_, i) => p(`Cover note line ${i + 1}`)).join('');
  const body = Array.from({ length: 120 }, (_, i) => p(`Body line ${i + 1}`)).join('');
  const pages = await docxPages(buildDocx({ body, sectPr: SECT, headers: { header1: header } }));
  // Headers are painted apart from the body's boxes: 12 lines from 35.4 pt down end near 175 pt (the top margin alone: 72).
  const first = findText(pages, 'Body line 1');
  assert.equal(first.page, 1);
  assert.ok(first.y > 150, `the first page body starts below the title-page header: first baseline at ${first.y}`);
  const onSecond = pages[1].boxes.filter((b) => b.kind === 'text' && b.text.startsWith('Body line'));
  const top = Math.min(...onSecond.map((b) => (b.kind === 'text' ? b.y : Infinity)));
  assert.ok(top < 72 + 20, `page 2 (no header) starts at its top margin: first baseline at ${top}`);
});
