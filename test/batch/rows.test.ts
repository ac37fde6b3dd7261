/**
 * The rows reader (server/batch/rows/) on real files written to a temp dir: CSV (RFC 4180 quoting, BOM, `;` and
 * tab), XLSX written with exceljs, a JSON array and NDJSON; the header and cell rules; every kind of bad input
 * refused with its row and column; a 100,000-row file read without holding it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { readRows, scanRows, RowsError, DEFAULT_ROWS_LIMITS, type Row } from '../../server/batch/rows/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-rows-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer, ext: string): string {
  const p = path.join(dir, `f${++n}${ext}`);
  fs.writeFileSync(p, content);
  return p;
}

async function all(p: string, options: Partial<Parameters<typeof readRows>[1]> = {}): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of readRows(p, { limits: DEFAULT_ROWS_LIMITS, ...options })) out.push(r);
  return out;
}

async function refused(p: string, options: Partial<Parameters<typeof readRows>[1]> = {}): Promise<RowsError> {
  try {
    await all(p, options);
  } catch (err) {
    assert.ok(err instanceof RowsError, `a RowsError, got ${String(err)}`);
    return err;
  }
  assert.fail('the file was accepted');
}

test('CSV: BOM, quoted commas, quotes and line breaks, dotted headers, lists, booleans, empty cells', async () => {
  const csv = '\uFEFFrecipient,instructor.name,items.0.description,items.1.description,with_honors,hours\r\n' +
    '"Person 1, Jr.",Dr. Ada,"first ""quoted""",,TRUE,12\r\n' +
    '"Two\nlines",Bob,,second,false,\r\n';
  const rows = await all(file(csv, '.csv'));
  assert.deepEqual(rows, [
    { row: 1, data: { recipient: 'Person 1, Jr.', instructor: { name: 'Dr. Ada' }, items: [{ description: 'first "quoted"' }], with_honors: true, hours: '12' } },
    { row: 2, data: { recipient: 'Two\nlines', instructor: { name: 'Bob' }, items: [{ description: 'second' }], with_honors: false } },
  ]);
});

test('CSV: `;` and tab delimiters are detected from the header', async () => {
  assert.deepEqual(await all(file('a;b.c\n1,5;x\n', '.csv')), [{ row: 1, data: { a: '1,5', b: { c: 'x' } } }]);
  assert.deepEqual(await all(file('a\tb\nx y\tTrue\n', '.tsv')), [{ row: 1, data: { a: 'x y', b: true } }]);
});

test('XLSX written with exceljs: first sheet or a named one; numbers, dates, booleans, formulas', async () => {
  const wb = new ExcelJS.Workbook();
  const first = wb.addWorksheet('People');
  first.addRow(['recipient', 'hours', 'date', 'with_honors', 'total', 'director.name']);
  first.addRow(['Ada, Countess', 12, new Date(Date.UTC(2026, 10, 2)), true, { formula: 'B2*2', result: 24 }, 'Grace']);
  first.addRow(['Bob', null, null, false, null, null]);
  const second = wb.addWorksheet('Other');
  second.addRow(['name']);
  second.addRow(['from the second sheet']);
  const p = path.join(dir, 'book.xlsx');
  await wb.xlsx.writeFile(p);
  assert.deepEqual(await all(p), [
    { row: 1, data: { recipient: 'Ada, Countess', hours: '12', date: '2026-11-02', with_honors: true, total: '24', director: { name: 'Grace' } } },
    { row: 2, data: { recipient: 'Bob', with_honors: false } },
  ]);
  assert.deepEqual(await all(p, { sheet: 'Other' }), [{ row: 1, data: { name: 'from the second sheet' } }]);
  const e = await refused(p, { sheet: 'Nope' });
  assert.equal(e.code, 'rows_sheet');
  assert.match(e.message, /"People", "Other"/);
});

test('JSON array and NDJSON: values kept as they are', async () => {
  const arr = file(' [ {"a": 1, "b": {"c": [1, "x]"]}}, {"s": "q\\"},{"} ] \n', '.json');
  assert.deepEqual(await all(arr), [{ row: 1, data: { a: 1, b: { c: [1, 'x]'] } } }, { row: 2, data: { s: 'q"},{' } }]);
  const nd = file('{"a": true}\n\n{"a": "x"}\n', '.ndjson');
  assert.deepEqual(await all(nd), [{ row: 1, data: { a: true } }, { row: 2, data: { a: 'x' } }]);
});

test('bad input: each refused with its code, row and column', async () => {
  const ragged = await refused(file('a,b\n1,2\n3,4,5\n', '.csv'));
  assert.equal(ragged.code, 'rows_ragged');
  assert.equal(ragged.row, 2);
  assert.match(ragged.describe(), /^Row 2, column C: the row has 3 fields, the header 2/);

  const header = await refused(file('name,instructor..name\nx,y\n', '.csv'));
  assert.equal(header.code, 'rows_header');
  assert.equal(header.column?.index, 2);
  assert.match(header.describe(), /^Header, column B \(instructor\.\.name\)/);
  assert.equal((await refused(file('a,a.b\n1,2\n', '.csv'))).code, 'rows_header');
  assert.equal((await refused(file('x.0,x.y\n1,2\n', '.csv'))).code, 'rows_header');
  assert.equal((await refused(file('x,X ,x\n1,2,3\n', '.csv'))).column?.index, 3);

  const latin1 = await refused(file(Buffer.concat([Buffer.from('name\nok\nM'), Buffer.from([0xfc]), Buffer.from('ller\n')]), '.csv'));
  assert.equal(latin1.code, 'rows_encoding');
  assert.match(latin1.message, /line 3/);
  assert.equal((await refused(file(Buffer.from('\ufeffa,b\n', 'utf16le'), '.csv'))).code, 'rows_encoding');

  assert.equal((await refused(file(Buffer.from('%PDF-1.7\n\u0000\u0001binary'), '.pdf'))).code, 'rows_format');
  assert.equal((await refused(file('[{"a":1}, 2]', '.json'))).row, 2);
  assert.equal((await refused(file('[{"a":1}, {"a":', '.json'))).code, 'rows_format');
  assert.equal((await refused(file('{"a":1}\n{nope}\n', '.ndjson'))).row, 2);
  assert.equal((await refused(file('', '.csv'))).code, 'rows_empty');
  assert.equal((await refused(file('a,b\n', '.csv'))).code, 'rows_empty');

  const many = await refused(file('a\n1\n2\n3\n', '.csv'), { limits: { rows: 2, bytes: 1000 } });
  assert.equal(many.code, 'rows_too_many');
  assert.equal(many.row, 3);
  const big = await refused(file('a\n1\n2\n3\n', '.csv'), { limits: { rows: 10, bytes: 4 } });
  assert.equal(big.code, 'rows_too_large');
  assert.equal(big.status, 413);
});

test('a 100,000-row CSV is streamed: counted without holding the rows', async () => {
  const p = path.join(dir, 'big.csv');
  const out = fs.createWriteStream(p);
  out.write('recipient,course,with_honors\n');
  for (let i = 1; i <= 100_000; i++) out.write(`"Person ${i}, Jr.",Course ${i % 7},${i % 2 === 0}\n`);
  await new Promise<void>((resolve) => out.end(resolve));
  let last: Row | undefined;
  let seen = 0;
  for await (const r of readRows(p, { limits: DEFAULT_ROWS_LIMITS })) {
    seen++;
    last = r;
  }
  assert.equal(seen, 100_000);
  assert.deepEqual(last, { row: 100_000, data: { recipient: 'Person 100000, Jr.', course: 'Course 5', with_honors: true } });
  const scan = await scanRows(p, { limits: DEFAULT_ROWS_LIMITS });
  assert.deepEqual(scan, { format: 'csv', total: 100_000, fields: ['recipient', 'course', 'with_honors'] });
});
