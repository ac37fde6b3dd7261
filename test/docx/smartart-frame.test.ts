/**
 * A SmartArt diagram saved without its drawing part (no dsp:sp shapes) still takes the room of its inline's
 * wp:extent: Word lays the diagram out again from its data inside that frame. Read from the layout as data and,
 * on oxsdk__SmartArt1 (four such diagrams), from the page count Word recorded (docProps/app.xml: 2 pages).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const EMU = 12700;

function diagramDocx(heightPt: number): Uint8Array {
  const inline =
    `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${200 * EMU}" cy="${heightPt * EMU}"/><wp:docPr id="1" name="Diagram 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">` +
    '<dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';
  const data =
    '<?xml version="1.0"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>' +
    '<dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:t>Label</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>';
  return buildDocx({
    body: p('Before') + inline + p('After'),
    rels: { rIdDm: ['diagramData', 'diagrams/data1.xml'] },
    extra: { 'word/diagrams/data1.xml': data },
  });
}

test('a SmartArt diagram without a drawing part keeps its frame\'s height in the text, its labels inside', async () => {
  const pages = await docxPages(diagramDocx(300));
  const label = findText(pages, 'Label');
  const after = findText(pages, 'After');
  const before = findText(pages, 'Before');
  // The label sits in the frame, which starts on the line after "Before"; "After" starts below the 300 pt frame.
  assert.ok(label.y > before.y && label.y < before.y + 40, `label at ${label.y}, before at ${before.y}`);
  assert.ok(after.y - before.y > 300, `"After" is ${after.y - before.y} pt below "Before"`);
  // A taller frame moves "After" down by the difference.
  const taller = findText(await docxPages(diagramDocx(400)), 'After');
  assert.ok(Math.abs(taller.y - after.y - 100) < 0.5, `400 pt frame: ${taller.y} vs ${after.y}`);
});

test('corpus: oxsdk__SmartArt1 has Word\'s 2 pages, its fourth diagram on the second', { skip: !fs.existsSync(path.join(CORPUS, 'oxsdk__SmartArt1.docx')) && 'no corpus' }, async () => {
  const pages = await docxPages(new Uint8Array(fs.readFileSync(path.join(CORPUS, 'oxsdk__SmartArt1.docx'))));
  assert.equal(pages.length, 2);
  // Word's w:lastRenderedPageBreak sits before diagram 4 (labels top1…top6), and the text after it follows.
  const boxes = textBoxes(pages);
  assert.equal(boxes.find((b) => b.text.includes('top1'))?.page, 2);
  assert.equal(boxes.find((b) => b.text.includes('Insert'))?.page, 2);
});
