/**
 * `docloom batch` as a real process (node --import tsx server/cli.ts batch …) on real files: the 300-row CSV of
 * issue #15 (BOM, quoted commas, a dotted header, true/false columns) → 300 PDFs whose text holds each row's
 * values; a failing row; --zip (checked with unzip) and --merge (checked with pdfinfo); a bad file refused; a
 * stored template named while the service runs, names sanitised and unique, progress lines when not a terminal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type Finished } from '../helpers/process.js';
import { certificateCsv } from './fixtures.js';
import { startTestServer } from '../helpers/server.js';
import { uploadTemplate } from '../service/support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'server', 'cli.ts');
const CERTIFICATE = path.join(ROOT, 'resources', 'templates', 'certificate.json');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-batch-cli-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

function batch(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return runProcess(process.execPath, ['--import', 'tsx', CLI, 'batch', ...args], {
    cwd: ROOT,
    env: { ...process.env, DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_DATA_DIR: path.join(dir, 'data'), ...env },
    timeout: 300_000,
  });
}

function text(file: string): string {
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

test('300 rows → 300 PDFs holding each row\'s values, progress and the summary on stderr, exit 0', async () => {
  const rows = path.join(dir, 'rows.csv');
  fs.writeFileSync(rows, certificateCsv(300));
  const out = path.join(dir, 'out');
  const run = await batch([CERTIFICATE, rows, '-o', out, '--name', '{{certificate_id}}', '--concurrency', '2']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /^300\/300 done, 0 failed, [\d.]+ s, \d+ doc\/s$/m);
  const files = fs.readdirSync(out).sort();
  assert.equal(files.length, 300);
  assert.equal(files[0], 'C-0001.pdf');
  assert.ok(!fs.existsSync(path.join(out, 'errors.csv')));
  for (const i of [1, 2, 3, 150, 299, 300]) {
    const t = text(path.join(out, `C-${String(i).padStart(4, '0')}.pdf`));
    assert.ok(t.includes(`Person ${i}, Jr.`), `row ${i}: recipient in ${t}`);
    assert.ok(t.includes(`Course "${i % 7}"`), `row ${i}: course`);
    assert.ok(t.includes(`Dr. Teacher ${i}`), `row ${i}: dotted header instructor.name`);
    assert.ok(t.includes(`Certificate no. C-${String(i).padStart(4, '0')}`), `row ${i}: id`);
    // with_honors: TRUE on odd rows, false on even ones (a condition, so the boolean rule is what makes it work).
    assert.equal(t.includes('with honors'), i % 2 === 1, `row ${i}: honors`);
    // hours empty on every third row: the field is left out and its section disappears.
    assert.equal(t.includes('a programme of'), i % 3 !== 0, `row ${i}: hours`);
  }
});

test('a failing row: the others are made, row number and error on stderr and in errors.csv, exit 1; default names', async () => {
  const rows = path.join(dir, 'bad-row.csv');
  fs.writeFileSync(rows, 'recipient,logo\nAda,\nBob,not-an-image\nCy,\n');
  const out = path.join(dir, 'out-bad');
  const run = await batch([CERTIFICATE, rows, '-o', out]);
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /^row 2: logo: .*\(invalid_image\)$/m);
  assert.match(run.stderr, /^2\/3 done, 1 failed/m);
  assert.deepEqual(fs.readdirSync(out).sort(), ['0001 certificate.pdf', '0003 certificate.pdf', 'errors.csv']);
  const csv = fs.readFileSync(path.join(out, 'errors.csv'), 'utf8').split('\r\n');
  assert.equal(csv[0], 'row,field,code,message');
  assert.match(csv[1], /^2,logo,invalid_image,/);
});

test('--zip: one zip of every PDF (unzip -l); --merge: one PDF with a page per row (pdfinfo); names made unique', async () => {
  const rows = path.join(dir, 'small.csv');
  fs.writeFileSync(rows, certificateCsv(12).replace(/C-00(0[2-4])/g, 'SAME'));
  const zip = path.join(dir, 'z', 'all.zip');
  const merged = path.join(dir, 'z', 'print.pdf');
  fs.mkdirSync(path.dirname(zip));
  const run = await batch([CERTIFICATE, rows, '--zip', zip, '--merge', merged, '--name', '{{certificate_id}}']);
  assert.equal(run.status, 0, run.stderr);
  const listing = execFileSync('unzip', ['-l', zip], { encoding: 'utf8' });
  assert.match(listing, /\s12 files\n/);
  for (const name of ['C-0001.pdf', 'SAME.pdf', 'SAME (2).pdf', 'SAME (3).pdf', 'C-0012.pdf']) assert.ok(listing.includes(name), name);
  execFileSync('unzip', ['-tq', zip]);
  const info = execFileSync('pdfinfo', [merged], { encoding: 'utf8' });
  assert.match(info, /^Pages:\s+12$/m);
  // Row order: page 5 is row 5.
  assert.ok(execFileSync('pdftotext', ['-f', '5', '-l', '5', merged, '-'], { encoding: 'utf8' }).includes('Person 5, Jr.'));
});

test('a bad rows file makes no document: the row and column are named, exit 1', async () => {
  const rows = path.join(dir, 'ragged.csv');
  fs.writeFileSync(rows, 'recipient,course\nAda,Maths\nBob,Physics,extra\n');
  const out = path.join(dir, 'out-ragged');
  const run = await batch([CERTIFICATE, rows, '-o', out]);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /ragged\.csv: Row 2, column C: the row has 3 fields, the header 2/);
  assert.ok(!fs.existsSync(out) || fs.readdirSync(out).length === 0);
  const usage = await batch([CERTIFICATE, rows]);
  assert.equal(usage.status, 2);
});

test('a stored template by name (the service running), --name sanitised and made unique, a progress line every interval off a terminal', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const made = await uploadTemplate(s, { name: 'certificate.json', bytes: fs.readFileSync(CERTIFICATE) }, { name: 'Course Certificate' });
    assert.equal(made.status, 201);
    const rows = path.join(dir, 'named.csv');
    // Ada twice (the second name gets " (2)"), then a name full of characters no file system takes.
    fs.writeFileSync(rows, 'recipient,course\nAda,Maths\nAda,maths\n"a/b\\c: <x>|y?*",Art\n' + Array.from({ length: 60 }, (_, i) => `P${i},C`).join('\n') + '\n');
    const out = path.join(dir, 'out-named');
    const run = await batch(['course certificate', rows, '-o', out, '--name', '{{recipient}} {{course}}', '--concurrency', '1'], {
      DOCLOOM_DATA_DIR: s.dataDir,
      DOCLOOM_BATCH_PROGRESS_SECONDS: '0.05',
    });
    assert.equal(run.status, 0, run.stderr);
    const files = fs.readdirSync(out);
    assert.equal(files.length, 63);
    assert.ok(files.includes('Ada Maths.pdf') && files.includes('Ada maths (2).pdf'), files.slice(0, 5).join(' | '));
    assert.ok(files.includes('a_b_c_ _x__y__ Art.pdf'), files.filter((f) => f.startsWith('a')).join(' | '));
    assert.ok(text(path.join(out, 'Ada maths (2).pdf')).includes('maths'));
    // Not a terminal: plain lines (no bar, no carriage returns), then the summary.
    assert.match(run.stderr, /^batch: \d+\/63, \d+ doc\/s, ETA /m);
    assert.ok(!run.stderr.includes('\r'), 'no terminal redraws in a log');
    assert.match(run.stderr, /^63\/63 done, 0 failed, [\d.]+ s, \d+ doc\/s$/m);
  } finally {
    await s.close();
  }
});
