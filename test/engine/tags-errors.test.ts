/**
 * Template errors (CONTRACT.md §5): every problem is reported, each with its code and location
 * {part, paragraph, tag}; paragraphs are counted in reading order, table cells included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { compileTemplate } from '../../server/engine/index.js';
import type { Delimiters, TemplateError } from '../../server/engine/model/types.js';
import { docxFixture } from '../helpers/fixtures.js';

function errorsOf(doc: Record<string, unknown>, delimiters?: Delimiters): TemplateError[] {
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, ...doc })), delimiters });
  assert.equal(result.ok, false, 'the template should be refused');
  return result.ok ? [] : result.errors;
}

function brief(errors: TemplateError[]): Array<[string, string, number | undefined, string | undefined]> {
  return errors.map((e) => [e.code, e.location.part, e.location.paragraph, e.location.tag]);
}

test('an unclosed section is reported at its opening tag', () => {
  const errors = errorsOf({ body: ['Hello', '{{#items}}{{name}}'] });
  assert.deepEqual(brief(errors), [['unclosed_section', 'body', 2, '{{#items}}']]);
  assert.equal(errors[0].message, 'The section {{#items}} is never closed.');
});

test('a closing tag without an opening tag', () => {
  const errors = errorsOf({ body: ['text {{/items}}'] });
  assert.deepEqual(brief(errors), [['unopened_section', 'body', 1, '{{/items}}']]);
  assert.match(errors[0].message, /has no opening tag/);
});

test('a mismatched closing tag is one error, not two', () => {
  assert.deepEqual(brief(errorsOf({ body: ['{{#a}}x{{/b}}'] })), [['mismatched_section', 'body', 1, '{{/b}}']]);
  // Closing an outer section while an inner one is open names the inner one.
  assert.deepEqual(brief(errorsOf({ body: ['{{#a}}', '{{#b}}', 'x', '{{/a}}'] })), [['mismatched_section', 'body', 2, '{{#b}}']]);
});

test('an open delimiter that is never closed', () => {
  const errors = errorsOf({ body: ['Hello {{name'] });
  assert.deepEqual(brief(errors), [['unclosed_tag', 'body', 1, '{{name']]);
  assert.equal(errors[0].message, 'The tag {{name is never closed: }} is missing.');
});

test('empty tags of every kind', () => {
  const errors = errorsOf({ body: ['{{}} and {{ }} and {{#}} and {{^ }} and {{%}}'] });
  assert.deepEqual(
    brief(errors),
    ['{{}}', '{{ }}', '{{#}}', '{{^ }}', '{{%}}'].map((tag) => ['empty_tag', 'body', 1, tag]),
  );
});

test('{{/}} closes the innermost open section; with none open it is an unopened section', () => {
  const ok = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, body: ['{{#a}}{{#b}}x{{/}}{{/ }}', '{{#c}}', 'y', '{{/}}'] })) });
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.errors));
  assert.deepEqual(brief(errorsOf({ body: ['text {{/}}'] })), [['unopened_section', 'body', 1, '{{/}}']]);
  assert.deepEqual(brief(errorsOf({ body: ['{{#a}}{{/}}{{/}}'] })), [['unopened_section', 'body', 1, '{{/}}']]);
});

test('unknown filters and bad filter arguments', () => {
  const errors = errorsOf({
    body: [
      '{{x | uper}}',
      '{{x | number:abc}} {{x | number:2:3}} {{x | currency:"EURO"}} {{x | currency}} {{x | default}} {{x | upper:1}}',
      '{{x | date:"[YYYY"}} {{x | default:"unclosed}}',
      '{{x |}}',
    ],
  });
  assert.deepEqual(brief(errors), [
    ['unknown_filter', 'body', 1, '{{x | uper}}'],
    ['bad_filter_argument', 'body', 2, '{{x | number:abc}}'],
    ['bad_filter_argument', 'body', 2, '{{x | number:2:3}}'],
    ['bad_filter_argument', 'body', 2, '{{x | currency:"EURO"}}'],
    ['bad_filter_argument', 'body', 2, '{{x | currency}}'],
    ['bad_filter_argument', 'body', 2, '{{x | default}}'],
    ['bad_filter_argument', 'body', 2, '{{x | upper:1}}'],
    ['bad_filter_argument', 'body', 3, '{{x | date:"[YYYY"}}'],
    ['bad_filter_argument', 'body', 3, '{{x | default:"unclosed}}'],
    ['unknown_filter', 'body', 4, '{{x |}}'],
  ]);
  assert.match(errors[0].message, /"uper", which does not exist\. Known filters: number, currency, date, upper, lower, default\./);
});

test('a second open delimiter inside a tag', () => {
  const errors = errorsOf({ body: ['{{a {{b}}'] });
  assert.deepEqual(brief(errors), [['duplicate_open_delimiter', 'body', 1, '{{a {{b}}']]);
});

test('a close delimiter that closes nothing: doubled after a tag, or stray in text', () => {
  const errors = errorsOf({ body: ['Header {{title}}}}', 'Total: 5}} and {{ok}}', '{{a}} }}'] });
  assert.deepEqual(brief(errors), [
    ['duplicate_close_delimiter', 'body', 1, '{{title}}}}'],
    ['unopened_tag', 'body', 2, 'Total: 5}}'],
    ['unopened_tag', 'body', 3, '}}'],
  ]);
  assert.equal(errors[0].message, 'The tag {{title}} is followed by a second }}, which closes nothing.');
  assert.equal(errors[1].message, 'The }} in "Total: 5}}" closes no tag: its {{ is missing.');
  // With single braces, as docxtemplater's examples use them.
  assert.deepEqual(brief(errorsOf({ body: ['{title}} x}'] }, ['{', '}'])), [
    ['duplicate_close_delimiter', 'body', 1, '{title}}'],
    ['unopened_tag', 'body', 1, 'x}'],
  ]);
});

test('a tag broken over paragraphs is one tag; an open delimiter followed by another is still unclosed', () => {
  const ok = compileTemplate({
    kind: 'json',
    bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, body: ['Dear {{first', '', '_name}}, hello', 'Ms {{', 'last_name', '}}'] })),
  });
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.errors));
  assert.deepEqual(ok.fields.map((f) => f.name), ['first_name', 'last_name']);
  // Paragraphs keep their numbers after a join; the next open delimiter ends the search.
  assert.deepEqual(brief(errorsOf({ body: ['{{a', 'b}}', '{{x | nope}}', '{{c', '{{d}}', '{{e'] })), [
    ['unknown_filter', 'body', 3, '{{x | nope}}'],
    ['unclosed_tag', 'body', 4, '{{c'],
    ['unclosed_tag', 'body', 6, '{{e'],
  ]);
  // Only paragraphs of the same body or cell join: a table in between stops it.
  assert.deepEqual(brief(errorsOf({ body: ['{{a', { type: 'table', rows: [['x']] }, 'b}}'] })), [
    ['unclosed_tag', 'body', 1, '{{a'],
    ['unopened_tag', 'body', 3, 'b}}'],
  ]);
});

test('a section opened in a table cell and closed outside that table', () => {
  const errors = errorsOf({ body: [{ type: 'table', rows: [['{{#a}}x']] }, '{{/a}}'] });
  assert.deepEqual(brief(errors), [['section_crosses_table', 'body', 1, '{{#a}}']]);
  assert.match(errors[0].message, /opened in a table cell and closed by \{\{\/a\}\} outside that table/);
});

test('a section opened outside a table and closed in a cell, or in another table', () => {
  const outside = errorsOf({ body: ['{{#a}}', { type: 'table', rows: [['x{{/a}}']] }] });
  assert.deepEqual(brief(outside), [['section_crosses_table', 'body', 1, '{{#a}}']]);
  assert.match(outside[0].message, /opened outside a table/);
  const another = errorsOf({ body: [{ type: 'table', rows: [['{{#a}}x']] }, { type: 'table', rows: [['{{/a}}x']] }] });
  assert.deepEqual(brief(another), [['section_crosses_table', 'body', 1, '{{#a}}']]);
  assert.match(another[0].message, /opened in one table and closed by \{\{\/a\}\} in another/);
  // From a nested table out into the cell of the table around it.
  const nested = errorsOf({
    body: [{ type: 'table', rows: [[{ blocks: [{ type: 'table', rows: [['{{#a}}']] }, '{{/a}}'] }]] }],
  });
  assert.deepEqual(brief(nested), [['section_crosses_table', 'body', 1, '{{#a}}']]);
  assert.match(nested[0].message, /outside that table/);
});

test('a section in the rows of a table loop but outside its tags is refused (docxtemplater: unbalanced loop)', () => {
  const errors = errorsOf({ body: [{ type: 'table', rows: [['{{#a}}X', '{{/a}}{{#b}}Y{{/b}}'], ['{{#c}}Z{{/c}}']] }] });
  assert.deepEqual(brief(errors), [['overlapping_table_sections', 'body', 2, '{{#b}}']]);
  assert.match(errors[0].message, /in table row 1, which the table section \{\{#a\}\} repeats/);
  // Before the loop's open tag, and in a table nested in one of its rows, too.
  assert.deepEqual(brief(errorsOf({ body: [{ type: 'table', rows: [['{{^d}}-{{/d}} {{#a}}X', '{{/a}}']] }] })), [
    ['overlapping_table_sections', 'body', 1, '{{^d}}'],
  ]);
  const nested = { type: 'table', rows: [['{{#n}}in{{/n}}']] };
  assert.deepEqual(brief(errorsOf({ body: [{ type: 'table', rows: [['{{#a}}X', '{{/a}}'], [{ blocks: ['y'] }, { blocks: ['z'] }]] }, 'ok', { type: 'table', rows: [['{{#a}}X', { blocks: ['{{/a}}', nested] }]] }] })), [
    ['overlapping_table_sections', 'body', 8, '{{#n}}'],
  ]);
  // Inside the loop, in other rows, or a plain variable after its close tag: all fine.
  const ok = compileTemplate({
    kind: 'json',
    bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, body: [{ type: 'table', rows: [['{{#a}}{{#b}}X{{/b}}', '{{/a}} {{note}}'], ['{{#c}}Z{{/c}}', '']] }] })),
  });
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.errors));
});

test('system tags, image sizes and overlapping table loops', () => {
  const errors = errorsOf({
    body: [
      '{{$foo}} {{%logo:12}} {{%logo:0x5}} {{#a | upper}}{{/a}}',
      { type: 'table', rows: [['{{#a}}x', 'y'], ['{{/a}}', '{{#b}}'], ['z', '{{/b}}']] },
    ],
  });
  assert.deepEqual(brief(errors), [
    ['unknown_system_tag', 'body', 1, '{{$foo}}'],
    ['invalid_image_size', 'body', 1, '{{%logo:12}}'],
    ['invalid_image_size', 'body', 1, '{{%logo:0x5}}'],
    ['invalid_tag', 'body', 1, '{{#a | upper}}'],
    ['overlapping_table_sections', 'body', 5, '{{#b}}'],
  ]);
});

test('parts are named body, header, header:first, header:even, footer, footer:first, footer:even', () => {
  const errors = errorsOf({
    header: { default: ['{{#h}}'], first: ['{{x|bad}}'], even: ['{{'] },
    footer: { default: ['{{}}'], first: ['{{/f}}'], even: ['{{a {{b}}'] },
    body: ['{{#b}}'],
  });
  assert.deepEqual(
    errors.map((e) => e.location.part),
    ['header', 'header:first', 'header:even', 'body', 'footer', 'footer:first', 'footer:even'],
  );
});

test('with several sections the part says which one', () => {
  const errors = errorsOf({ sections: [{ body: ['ok'] }, { body: ['{{#x}}'], footer: ['{{/y}}'] }] });
  assert.deepEqual(brief(errors), [
    ['unclosed_section', 'section 2 body', 1, '{{#x}}'],
    ['unopened_section', 'section 2 footer', 1, '{{/y}}'],
  ]);
});

test('paragraphs are counted in reading order through table cells and nested tables', () => {
  const errors = errorsOf({
    body: [
      'p1',
      {
        type: 'table',
        rows: [
          ['p2', { blocks: ['p3', { type: 'table', rows: [['p4', 'p5 {{bad | x}}']] }] }],
          ['p6', 'p7'],
        ],
      },
      'p8 {{/z}}',
    ],
  });
  assert.deepEqual(brief(errors), [
    ['unknown_filter', 'body', 5, '{{bad | x}}'],
    ['unopened_section', 'body', 8, '{{/z}}'],
  ]);
});

test('every error is collected: a template with twelve mistakes reports twelve errors', () => {
  const errors = errorsOf({
    header: ['{{#unclosed}}'],
    body: [
      '{{/never_opened}}',
      '{{#a}}x{{/b}}',
      'Hello {{name',
      '{{}}',
      '{{x | nope}}',
      '{{x | number:many}}',
      '{{one {{two}}',
      { type: 'table', rows: [['{{#cell}}x']] },
      '{{/cell}}',
      'Total: 5}}',
      '{{$nope}}',
    ],
    footer: ['{{%img:wide}}'],
  });
  assert.equal(errors.length, 12, JSON.stringify(brief(errors)));
  assert.deepEqual(new Set(errors.map((e) => e.code)), new Set([
    'unclosed_section', 'unopened_section', 'mismatched_section', 'unclosed_tag', 'empty_tag', 'unknown_filter',
    'bad_filter_argument', 'duplicate_open_delimiter', 'section_crosses_table', 'unopened_tag',
    'unknown_system_tag', 'invalid_image_size',
  ]));
  for (const e of errors) {
    assert.ok(e.message.length > 10 && /[.!]$/.test(e.message), `a sentence: ${e.message}`);
    assert.ok(e.location.tag, `the tag is named for ${e.code}`);
  }
});

test('errors use the template\'s own delimiters', () => {
  const errors = errorsOf({ body: ['[#items][name]', '<<ignored>> [x | bad]'] }, ['[', ']']);
  assert.deepEqual(brief(errors), [
    ['unclosed_section', 'body', 1, '[#items]'],
    ['unknown_filter', 'body', 2, '[x | bad]'],
  ]);
  assert.equal(errors[0].message, 'The section [#items] is never closed.');
});

test('a bad file is one error located at the file', () => {
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode('{"docloom": 1, "body": [42]}') });
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0].code, 'invalid_template');
    assert.equal(result.errors[0].location.part, 'file');
    assert.match(result.errors[0].message, /^\$\.body\[0\]: /);
  }
});

test('a .docx that cannot be read keeps the reader\'s code: unsupported_file, too_large (docxLimits), invalid_template', () => {
  const docx = new Uint8Array(fs.readFileSync(docxFixture('tag-example')));
  const codeOf = (source: Parameters<typeof compileTemplate>[0]): [string, string] => {
    const result = compileTemplate(source);
    assert.equal(result.ok, false);
    return result.ok ? ['', ''] : [result.errors[0].code, result.errors[0].location.part];
  };
  assert.deepEqual(codeOf({ kind: 'docx', bytes: new TextEncoder().encode('not a zip') }), ['unsupported_file', 'file']);
  assert.deepEqual(codeOf({ kind: 'docx', bytes: docx, docxLimits: { maxUncompressedBytes: 1000 } }), ['too_large', 'file']);
  assert.deepEqual(codeOf({ kind: 'docx', bytes: docx, docxLimits: { maxEntries: 2 } }), ['too_large', 'file']);
  assert.deepEqual(codeOf({ kind: 'docx', bytes: docx.slice(0, 2000) }), ['invalid_template', 'file']);
  // The limits left out keep their defaults: the same file compiles.
  assert.ok(compileTemplate({ kind: 'docx', bytes: docx, delimiters: ['{', '}'], docxLimits: { maxEntryRatio: 100 } }).ok);
});

test('blank delimiters are refused instead of scanning forever', () => {
  for (const delimiters of [['', ''], ['{{', ''], [' ', '}}'], ['<<', '\n']] as Delimiters[]) {
    const errors = errorsOf({ body: ['text'] }, delimiters);
    assert.deepEqual(errors.map((e) => [e.code, e.location.part]), [['invalid_delimiters', 'template']]);
  }
});

test('scanTags: text holding neither delimiter is one literal piece; a lone close delimiter is still reported', async () => {
  const { scanTags } = await import('../../server/engine/tags/scan.js');
  assert.deepEqual(scanTags('plain words', ['{{', '}}']), { pieces: [{ kind: 'text', start: 0, end: 11 }], problems: [], unclosedAt: -1 });
  assert.deepEqual(scanTags('', ['{{', '}}']), { pieces: [], problems: [], unclosedAt: -1 });
  const stray = scanTags('closes }} nothing', ['{{', '}}']);
  assert.deepEqual(stray.problems.map((p) => p.code), ['unopened_tag']);
  const open = scanTags('opens {{ never', ['{{', '}}']);
  assert.equal(open.unclosedAt, 6);
});
