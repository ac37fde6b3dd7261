/**
 * The core of the differential test against docxtemplater (issue #12): the generated set, one template per grammar
 * rule, filled by docxtemplater with its expressions parser (the oracle) and by docloom (.docx and PDF). The full
 * run, with the shared docxtemplater examples and resources/templates, is `npm run diff:docxtemplater`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureCases, generatedCases, runAll } from '../../../scripts/diff-docxtemplater.js';

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
