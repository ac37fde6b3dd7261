/**
 * The core of the differential test against docxtemplater (issue #12): the generated set, one template per grammar
 * rule, filled by docxtemplater with its expressions parser (the oracle) and by docloom (.docx and PDF). The full
 * run, with the shared docxtemplater examples and resources/templates, is `npm run diff:docxtemplater`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureCases, generatedCases, runAll } from '../../../scripts/diff-docxtemplater.js';
import { buildDocx, p } from '../../docx/build-docx.js';

test('generated grammar set: no malformed .docx, no refusal where docxtemplater fills, no undeclared difference, ≥ 95 % same text', async () => {
  const summary = await runAll(generatedCases());
  assert.deepEqual(summary.failures.map((r) => `${r.verdict}: ${r.id}\n${r.detail ?? ''}`), []);
  assert.ok(summary.bothFill >= 35, `both fill ${summary.bothFill}`);
  assert.ok(summary.sameShare >= 0.95, `same text on ${(summary.sameShare * 100).toFixed(1)} %`);
  // The deliberate differences are really different (so the list stays honest).
  for (const r of summary.results.filter((x) => x.verdict === 'deliberate')) assert.ok(r.detail, r.id);
});

test('a paragraph holding a table (regression-par-in-par): the PDF shows what docxtemplater and the filled .docx show', async () => {
  const cases = fixtureCases().filter((c) => c.id === 'regression-par-in-par.docx');
  assert.equal(cases.length, 1, 'the shared fixture is there');
  const [result] = (await runAll(cases)).results;
  assert.equal(result.verdict, 'same', result.detail);
  assert.ok(result.docloom.ok && /name phone website/.test(result.docloom.pdf), JSON.stringify(result.docloom));
});

test('text Word draws rather than writes (Roman list numbers, capitals) is compared as shown: the filled .docx read back and drawn', async () => {
  const numbering = '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>';
  const numPr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>';
  const bytes = buildDocx({ body: p('{{#items}}') + p('{{desc}} entry', numPr) + p('{{/items}}') + p('Dear {{name}}', '', '<w:caps/>'), numbering });
  const data = { name: 'Ada', items: [{ desc: 'Design' }, { desc: 'Build' }, { desc: 'Test' }] };
  const [result] = (await runAll([{ id: 'drawn text', set: 'generated', kind: 'docx', delimiters: ['{{', '}}'], data, bytes }])).results;
  assert.equal(result.verdict, 'same', result.detail);
  // The word check alone cannot match "I." or "DEAR ADA" to the .docx's words: the read-back did.
  assert.equal(result.shown, 'rendered');
  assert.ok(result.docloom.ok && /I\. Design entry II\. Build entry III\. Test entry DEAR ADA/.test(result.docloom.pdf), JSON.stringify(result.docloom));
});
