/**
 * Template errors (CONTRACT.md §5): every problem is reported, each with its code and location
 * {part, paragraph, tag}; paragraphs are counted in reading order, table cells included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate } from '../../server/engine/index.js';
import type { Delimiters, TemplateError } from '../../server/engine/model/types.js';

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
  const errors = errorsOf({ body: ['{{}} and {{ }} and {{#}} and {{%}} and {{/ }}'] });
  assert.deepEqual(
    brief(errors),
    ['{{}}', '{{ }}', '{{#}}', '{{%}}', '{{/ }}'].map((tag) => ['empty_tag', 'body', 1, tag]),
  );
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

test('a section over several paragraphs needs its tags alone in their paragraphs', () => {
  const errors = errorsOf({ body: ['{{#a}} text', 'middle', '{{/a}}'] });
  assert.deepEqual(brief(errors), [['section_spans_paragraphs', 'body', 1, '{{#a}}']]);
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
      '{{#p}} with text',
      '{{/p}}',
      '{{$nope}}',
    ],
    footer: ['{{%img:wide}}'],
  });
  assert.equal(errors.length, 12, JSON.stringify(brief(errors)));
  assert.deepEqual(new Set(errors.map((e) => e.code)), new Set([
    'unclosed_section', 'unopened_section', 'mismatched_section', 'unclosed_tag', 'empty_tag', 'unknown_filter',
    'bad_filter_argument', 'duplicate_open_delimiter', 'section_crosses_table', 'section_spans_paragraphs',
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

test('blank delimiters are refused instead of scanning forever', () => {
  for (const delimiters of [['', ''], ['{{', ''], [' ', '}}'], ['<<', '\n']] as Delimiters[]) {
    const errors = errorsOf({ body: ['text'] }, delimiters);
    assert.deepEqual(errors.map((e) => [e.code, e.location.part]), [['invalid_delimiters', 'template']]);
  }
});
