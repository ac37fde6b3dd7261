/**
 * Filters (number, currency, date, upper, lower, default), chained, in the template's locale or the one given
 * at render time. Expected strings are written out (with their no-break spaces) rather than computed by Intl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, EngineError, type CompiledTemplate } from '../../server/engine/index.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import type { Paragraph } from '../../server/engine/model/types.js';

function compile(text: string, locale?: string): CompiledTemplate {
  const doc = { docloom: 1, ...(locale ? { locale } : {}), body: [text] };
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify(doc)) });
  if (!result.ok) assert.fail(JSON.stringify(result.errors));
  return result.template;
}

async function render(text: string, data: Record<string, unknown>, opts: { templateLocale?: string; locale?: string } = {}): Promise<string> {
  const bound = await bindTemplate(compile(text, opts.templateLocale), data, { locale: opts.locale });
  return (bound.sections[0].body[0] as Paragraph).runs.map((r) => (r.type === 'text' ? r.text : '')).join('');
}

const NBSP = '\u00a0';
const NNBSP = '\u202f';

test('number: decimals and grouping follow the locale', async () => {
  const data = { a: 1234567.891, s: '1234.5', neg: -3, text: 'n/a', nothing: '' };
  assert.equal(await render('{{a | number:2}}|{{s | number:2}}|{{neg | number:0}}|{{a | number}}', data), '1,234,567.89|1,234.50|-3|1,234,567.891');
  assert.equal(await render('{{a | number:2}}', data, { locale: 'de-DE' }), '1.234.567,89');
  assert.equal(await render('{{a | number:1}}', data, { locale: 'fr-FR' }), `1${NNBSP}234${NNBSP}567,9`);
  assert.equal(await render('{{a | number:0}}', data, { locale: 'en-IN' }), '12,34,568');
  // Values that are not numbers pass through; missing stays empty.
  assert.equal(await render('[{{text | number:2}}][{{nothing | number:2}}][{{missing | number:2}}]', data), '[n/a][][]');
});

test('currency: code from the tag, format from the locale', async () => {
  const data = { p: 1234.5, s: '99' };
  assert.equal(await render('{{p | currency:"EUR"}} {{s | currency:"USD"}}', data), '€1,234.50 $99.00');
  assert.equal(await render('{{p | currency:"EUR"}}', data, { locale: 'de-DE' }), `1.234,50${NBSP}€`);
  assert.equal(await render('{{p | currency:"JPY"}}', data, { locale: 'ja-JP' }), '￥1,235');
  assert.equal(await render('{{p | currency:"eur":0}}', data, { locale: 'en-GB' }), '€1,235');
});

test('the template locale applies, and the render option overrides it', async () => {
  assert.equal(await render('{{p | number:2}}', { p: 1000.5 }, { templateLocale: 'de-DE' }), '1.000,50');
  assert.equal(await render('{{p | number:2}}', { p: 1000.5 }, { templateLocale: 'de-DE', locale: 'en-US' }), '1,000.50');
});

test('date: dayjs tokens over ISO dates, date-times and timestamps', async () => {
  const data = {
    d: '2026-11-22',
    dt: '2026-03-05T09:07:03.045+02:00',
    utc: '2026-03-05T23:59:00Z',
    secs: 1700000000,
    ms: 1700000000000,
    digits: '1700000000',
    bad: 'soon',
    feb: '2026-02-30',
  };
  assert.equal(await render('{{d | date:"D MMMM YYYY"}}', data), '22 November 2026');
  assert.equal(await render('{{d | date:"dddd, MMM D, YY"}}', data), 'Sunday, Nov 22, 26');
  assert.equal(await render('{{d | date}}', data), '2026-11-22');
  assert.equal(await render('{{dt | date:"DD.MM.YYYY HH:mm:ss.SSS Z ZZ"}}', data), '05.03.2026 09:07:03.045 +02:00 +0200');
  assert.equal(await render('{{dt | date:"h:mm A, hh a, H, d"}}', data), '9:07 AM, 09 am, 9, 4');
  assert.equal(await render('{{utc | date:"YYYY-MM-DD HH:mm [at] Z"}}', data), '2026-03-05 23:59 at +00:00');
  assert.equal(await render('{{secs | date:"YYYY-MM-DD HH:mm"}}|{{ms | date:"YYYY-MM-DD"}}|{{digits | date:"D/M/YYYY"}}', data), '2023-11-14 22:13|2023-11-14|14/11/2023');
  // Not a date (or an impossible one): the value shows as it is.
  assert.equal(await render('{{bad | date:"YYYY"}}|{{feb | date:"YYYY"}}|{{missing | date:"YYYY"}}', data), 'soon|2026-02-30|');
});

test('date: month and weekday names in the locale, in their "day month" form when the format has a day', async () => {
  const data = { d: '2026-11-22', m: '2026-03-01' };
  assert.equal(await render('{{d | date:"D MMMM YYYY"}}', data, { locale: 'de-DE' }), '22 November 2026');
  assert.equal(await render('{{m | date:"D. MMMM YYYY, dddd"}}', data, { locale: 'de-DE' }), '1. März 2026, Sonntag');
  assert.equal(await render('{{d | date:"D MMMM YYYY"}}', data, { locale: 'ru-RU' }), '22 ноября 2026');
  assert.equal(await render('{{d | date:"MMMM YYYY"}}', data, { locale: 'ru-RU' }), 'ноябрь 2026');
  assert.equal(await render('{{d | date:"D MMMM YYYY"}}', data, { locale: 'fr-FR' }), '22 novembre 2026');
});

test('upper, lower and default, chained in order', async () => {
  const data = { name: 'Ann Lee', empty: '', city: 'istanbul', obj: { a: 1 } };
  assert.equal(await render('{{name | upper}} {{name | lower}}', data), 'ANN LEE ann lee');
  assert.equal(await render('{{empty | default:"—"}}|{{missing | default:"n/a" | upper}}|{{name | default:"x"}}|{{obj | default:"?"}}', data), '—|N/A|Ann Lee|?');
  assert.equal(await render('{{city | upper}}', data, { locale: 'tr-TR' }), 'İSTANBUL');
  assert.equal(await render('{{n | number:2 | default:"zero"}}', { n: '' }), 'zero');
});

test('quoted arguments: straight or curly quotes, bare words, pipes and colons inside quotes', async () => {
  const data = { d: '2026-11-22', x: '' };
  assert.equal(await render('{{d | date:“YYYY”}} {{d | date:‘MM’}} {{d|date:YYYY}}', data), '2026 11 2026');
  assert.equal(await render('{{x | default:"a | b: c"}}', data), 'a | b: c');
  // Text after a closing quote is a mistake the author should hear about.
  const bad = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, body: ["{{x | default:'it''s'}}"] })) });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.errors[0].code, 'bad_filter_argument');
});

test('an unknown locale is refused with a clear error', async () => {
  await assert.rejects(
    bindTemplate(compile('{{x}}'), {}, { locale: 'not a locale!' }),
    (err: unknown) => err instanceof EngineError && err.code === 'invalid_locale' && /not a valid locale/.test(err.message),
  );
});
