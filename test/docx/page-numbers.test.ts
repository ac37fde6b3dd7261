/**
 * Page numbering per section (w:pgNumType start and fmt): the numbers page fields show in footers, read from the
 * PDF with pdftotext -bbox.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { words } from '../engine/pdf/helpers.js';
import { buildDocx, p } from './build-docx.js';

const PAGE_FIELD = '<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>9</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>';
const BREAK = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';

function sect(pgNumType: string): string {
  return `<w:sectPr><w:footerReference w:type="default" r:id="rId_footer1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${pgNumType}</w:sectPr>`;
}

/** The word after "Page" in each page's footer. */
async function footerNumbers(body: string, sectPr: string): Promise<string[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body, sectPr, footers: { footer1: PAGE_FIELD } }) });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  const out: string[] = [];
  all.forEach((w, i) => {
    if (w.text === 'Page' && all[i + 1]?.page === w.page) out[w.page - 1] = all[i + 1].text;
  });
  return out;
}

test('a section restarts its page numbers at w:start and writes them in w:fmt; the next section goes on counting', async () => {
  // Section 1: two pages numbered from 200. Section 2: two pages in lower-case roman from 5. Section 3 (no
  // pgNumType): goes on from there, in its own (decimal) format.
  const first = p('One') + BREAK + p('Two') + `<w:p><w:pPr>${sect('<w:pgNumType w:start="200"/>')}</w:pPr></w:p>`;
  const second = p('Three') + BREAK + p('Four') + `<w:p><w:pPr>${sect('<w:pgNumType w:fmt="lowerRoman" w:start="5"/>')}</w:pPr></w:p>`;
  const third = p('Five');
  assert.deepEqual(await footerNumbers(first + second + third, sect('')), ['200', '201', 'v', 'vi', '7']);
});

test('without w:pgNumType pages are numbered from 1', async () => {
  assert.deepEqual(await footerNumbers(p('One') + BREAK + p('Two'), sect('')), ['1', '2']);
});

test('with w:evenAndOddHeaders, even and odd are the page numbers: a section numbered from 200 starts with the even header', async () => {
  const sectPr =
    '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:headerReference w:type="even" r:id="rId_header2"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:pgNumType w:start="200"/></w:sectPr>';
  const compiled = compileTemplate({
    kind: 'docx',
    bytes: buildDocx({ body: p('One') + BREAK + p('Two') + BREAK + p('Three'), sectPr, settings: '<w:evenAndOddHeaders/>', headers: { header1: p('OddHeader'), header2: p('EvenHeader') } }),
  });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  const header = (page: number): string | undefined => all.find((w) => w.page === page && w.text.endsWith('Header'))?.text;
  assert.deepEqual([header(1), header(2), header(3)], ['EvenHeader', 'OddHeader', 'EvenHeader']);
});
