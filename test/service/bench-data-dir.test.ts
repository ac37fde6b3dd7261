/**
 * Where the benchmarks put their services' data folders (bench/lib/data-dir.ts): each a new, empty folder of its own
 * under one parent, the probe's files gone, and — on ext4 with chattr, as on this machine — the parent flagged TOPDIR so
 * that ext4 spreads the folders over its block groups. The figures of bench/http-docx.ts and bench/threads.ts depend
 * on it (docs/benchmarks.md, session 20).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { benchDataDir, benchDataParent, dataDirLine, fileCreateCostUs } from '../../bench/lib/data-dir.js';

test('each data folder is new, empty and under the one parent', () => {
  const a = benchDataDir('docloom-test-a-');
  const b = benchDataDir('docloom-test-b-');
  try {
    assert.notEqual(a, b);
    for (const dir of [a, b]) {
      assert.equal(path.dirname(dir), benchDataParent());
      assert.match(path.basename(dir), /^docloom-test-[ab]-/);
      // The probe's files and folder are removed: the service starts in an empty folder.
      assert.deepEqual(fs.readdirSync(dir), []);
    }
  } finally {
    fs.rmSync(a, { recursive: true, force: true });
    fs.rmSync(b, { recursive: true, force: true });
  }
});

test('a file creation cost is measured and reported, and nothing is left of the probe', () => {
  const before = new Set(fs.readdirSync(benchDataParent()));
  const cost = fileCreateCostUs();
  assert.ok(Number.isFinite(cost) && cost > 0, `cost ${cost}`);
  assert.match(dataDirLine(), /^data folders in .+; creating a file in one: \d+ µs CPU/);
  const left = fs.readdirSync(benchDataParent()).filter((name) => !before.has(name) && name.startsWith('probe-'));
  assert.deepEqual(left, []);
});

test('on ext4 the parent carries the TOPDIR flag', (t) => {
  let attrs: string;
  try {
    attrs = execFileSync('lsattr', ['-d', benchDataParent()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    t.skip('no lsattr, or a file system without ext4 attributes: the folders are made without the spread');
    return;
  }
  const fsType = execFileSync('stat', ['-f', '-c', '%T', benchDataParent()], { encoding: 'utf8' }).trim();
  if (fsType !== 'ext2/ext3') {
    t.skip(`${fsType} is not ext4: no TOPDIR flag to set`);
    return;
  }
  assert.match(attrs.split(' ')[0], /T/, attrs);
});
