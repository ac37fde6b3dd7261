/**
 * A font's external leading (what its hhea line gap adds to the line past its Windows ascent and descent, GDI's
 * tmExternalLeading) is room above the text, not below it: Liberation Sans (Arial's stand-in) puts 0.033 em of
 * its 1.149 em line above the ascent, so the baseline of a line sits 0.938 em below its top; Carlito (Calibri's)
 * has none, its baseline stays 0.952 em down. LibreOffice lays Word documents out the same way
 * (SwFntObj::GetFontAscent). Read from the layout data and from the PDF's text (pdftotext -layout).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { pdfText } from '../helpers/pdf.js';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx } from './build-docx.js';

const TOP = 72;
const para = (font: string, text: string): string =>
  `<w:p><w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/><w:sz w:val="22"/></w:rPr><w:t>${text}</w:t></w:r></w:p>`;

test('the line gap of Liberation Sans is above the text: the first baseline is 0.938 em below the top margin', async () => {
  const arial = await docxPages(buildDocx({ body: para('Arial', 'First') + para('Arial', 'Second') }));
  const first = findText(arial, 'First');
  const second = findText(arial, 'Second');
  // (1854 + 67) / 2048 em of 11 pt; with the gap below the text it was 1854 / 2048 (9.96 pt).
  assert.ok(Math.abs(first.y - (TOP + (11 * 1921) / 2048)) < 0.02, `Arial's first baseline at ${first.y}`);
  // The line itself is as tall as before: ascent + descent + gap, 1.149 em.
  assert.ok(Math.abs(second.y - first.y - (11 * 2355) / 2048) < 0.02, `line pitch ${second.y - first.y}`);
  const calibri = await docxPages(buildDocx({ body: para('Calibri', 'First') }));
  assert.ok(Math.abs(findText(calibri, 'First').y - (TOP + (11 * 1950) / 2048)) < 0.02, 'Carlito has no external leading: unchanged');
});

test('an inline shape\'s centred label reads on its line (unstructured__docx-shapes)', async () => {
  // A 20.3 pt high shape in a line of 12 pt Times New Roman (Liberation Serif), its label centred down it: with
  // the gap above, the label's baseline is 5.9 pt above the line's, as in LibreOffice, under pdftotext's
  // half-the-size limit for one line (it was 6.4 pt: the label read as a line of its own, above).
  const EMU = 12700;
  const WPS = 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape';
  const rPr = '<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr>';
  const label = `<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r>${rPr}<w:t>&lt;shape-label&gt;</w:t></w:r></w:p>`;
  const shape = `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${Math.round(83.25 * EMU)}" cy="${Math.round(20.3 * EMU)}"/>` +
    `<wp:docPr id="1" name="Shape 1"/><a:graphic><a:graphicData uri="${WPS}"><wps:wsp><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>` +
    `<a:solidFill><a:srgbClr val="729FCF"/></a:solidFill></wps:spPr><wps:txbx><w:txbxContent>${label}</w:txbxContent></wps:txbx>` +
    `<wps:bodyPr lIns="0" tIns="0" rIns="0" bIns="0" anchor="ctr"/></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const text = (t: string): string => `<w:r>${rPr}<w:t xml:space="preserve">${t}</w:t></w:r>`;
  const body = `<w:p>${text('Paragraph with single ')}${shape}${text(' within.')}</w:p>`;
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body }) });
  assert.ok(compiled.ok);
  const layout = pdfText((await renderPdf(compiled.template, {})).bytes, { layout: true });
  assert.match(layout, /Paragraph with single\s+<shape-label>\s+within\./, layout);
});
