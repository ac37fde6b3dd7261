/**
 * Delimiters at import (issue 13, item 6): a file with no fields under its delimiters is tried with `{ }`, `[ ]`,
 * `<< >>` and `${ }`; a pair that parses gives a `no_tags_found` warning naming it, which goes once the template
 * is read with it. `docloom import` prints the warning with the flag to use.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runProcess } from '../helpers/process.js';
import { json, type Body } from './support.js';
import { uploadTemplate } from './support.js';
import { buildDocx, p } from '../docx/build-docx.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = path.join(ROOT, '..', 'shared', 'fixtures', 'docxtemplater-examples', 'tag-example.docx');

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const suggestion = (t: Body) => (t.import_warnings as Body[]).find((w) => w.code === 'no_tags_found');
const names = (fields: Body[]): string[] => fields.flatMap((f) => [f.name, ...names(f.fields ?? [])]);
/** Template responses carry `fields` as a JSON string (AutomatedDocs' shape). */
const fieldsOf = (t: Body): Body[] => (typeof t.fields === 'string' ? JSON.parse(t.fields) : t.fields);

test('a docxtemplater example ({ } tags) gets the suggestion; read with { } it has its fields and the warning goes', async () => {
  const up = await uploadTemplate(s, { name: 'tag-example.docx', bytes: fs.readFileSync(EXAMPLE) });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const t = up.body.template;
  assert.deepEqual(fieldsOf(t), []);
  const w = suggestion(t)!;
  assert.ok(w, JSON.stringify(t.import_warnings));
  assert.equal(w.suggested_delimiters, '{ }');
  assert.ok(w.count >= 3, String(w.count));
  assert.equal(w.message, `No {{ }} tags found; ${w.count} tags use { }.`);
  assert.deepEqual(w.location, { part: 'file' });

  const put = await s.api(`/api/template/${t.uuid}`, { method: 'PUT', body: new URLSearchParams({ delimiters: '{ }' }) });
  assert.equal(put.status, 200);
  const fixed = (await json(put)).template;
  assert.equal(names(fieldsOf(fixed)).length, w.count, 'the count said how many fields the pair gives');
  assert.ok(names(fieldsOf(fixed)).includes('last_name'), JSON.stringify(fixed.fields));
  assert.equal(suggestion(fixed), undefined);
});

test('each other pair is found; `${x}` suggests ${ } (not { }); a file with no tags at all or with fields gets none', async () => {
  const cases: Array<[string, string]> = [['[name] and [city]', '[ ]'], ['<<name>> and <<city>>', '<< >>'], ['${name} and ${city}', '${ }']];
  for (const [text, pair] of cases) {
    const up = await uploadTemplate(s, { name: 'x.docx', bytes: buildDocx({ body: p(`Dear ${text}`) }) });
    assert.equal(up.status, 201);
    assert.deepEqual({ pair: suggestion(up.body.template)?.suggested_delimiters, count: suggestion(up.body.template)?.count }, { pair, count: 2 }, text);
  }
  for (const text of ['No tags here at all.', 'Dear {{name}}, see [1] and {x}']) {
    const up = await uploadTemplate(s, { name: 'y.docx', bytes: buildDocx({ body: p(text) }) });
    assert.equal(up.status, 201);
    assert.equal(suggestion(up.body.template), undefined, text);
  }
});

test('docloom import prints the suggestion with the flag to use', async () => {
  const r = await runProcess(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'cli.ts'), 'import', EXAMPLE], {
    cwd: ROOT,
    env: { ...process.env, DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_DATA_DIR: s.dataDir },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /fields: \(none\)/);
  assert.match(r.stderr, /warning no_tags_found \(.*\): No \{\{ \}\} tags found; \d+ tags use \{ \}\. Import it with --delimiters "\{ \}"\./);
});
