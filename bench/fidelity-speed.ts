/**
 * First render of a never-seen .docx against a warm LibreOffice, over the public corpus (issue 11): per file,
 * docloom's import + compile + render (median of 4, in a child process warmed on 3 files) and LibreOffice's
 * load + export + close in one warm headless process, file after file in the same run (scripts/lib/corpus.ts with
 * --speed-only: the times of the corpus measurement, none of its page metrics).
 *
 *   node --import tsx bench/fidelity-speed.ts [--corpus DIR] [--only SUBSTRING] [--limit N]
 *
 * Targets: speed-up (LibreOffice warm ÷ docloom) ≥ 10× at the median and ≥ 5× at the 10th percentile.
 * LibreOffice is a yardstick only (never used by docloom): where soffice or python3-uno is missing, or the corpus
 * is not beside the clone, the benchmark says so and measures nothing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue, measureCorpus, median, quantile } from '../scripts/lib/corpus.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_MEDIAN = 10;
const TARGET_P10 = 5;

function missing(): string | null {
  const install = 'apt-get install libreoffice-writer-nogui python3-uno to measure';
  if (spawnSync('soffice', ['--version'], { encoding: 'utf8' }).status !== 0) return `LibreOffice (soffice) is not installed (${install})`;
  if (spawnSync('/usr/bin/python3', ['-c', 'import uno'], { encoding: 'utf8' }).status !== 0) return `python3-uno is not installed (${install})`;
  const corpus = argValue(process.argv, '--corpus') ?? path.join(ROOT, '..', 'shared', 'corpus', 'docx');
  if (!fs.existsSync(corpus)) return `no corpus at ${corpus}`;
  return null;
}

const why = missing();
if (why) {
  console.log(`bench/fidelity-speed: skipped — ${why}; nothing measured, not a target miss.`);
} else {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-fidelity-speed-'));
  try {
    const argv = ['--corpus', ...process.argv.slice(2), '--work', work, '--speed-only'];
    // `--corpus DIR` given by the user comes after the bare flag above and wins (argValue takes the last value).
    const run = await measureCorpus(argv);
    const speedups = run.rows.flatMap((r) => (r.speedup !== undefined ? [r.speedup] : []));
    const docloom = run.rows.flatMap((r) => (r.docloomMs !== undefined ? [r.docloomMs] : []));
    const lo = run.rows.flatMap((r) => (r.loMs !== undefined ? [r.loMs] : []));
    const slowest = [...run.rows].filter((r) => r.speedup !== undefined).sort((a, b) => (a.speedup as number) - (b.speedup as number)).slice(0, 5);
    console.log(`corpus ${run.corpus}: ${run.rows.length} files, ${speedups.length} with both times; ${run.machine}`);
    console.log(`load average ${run.loadStart} at the start, ${run.loadEnd} at the end (${run.durationS} s)`);
    console.log(`docloom import + compile + render: median ${median(docloom).toFixed(1)} ms; LibreOffice warm: median ${median(lo).toFixed(0)} ms`);
    console.log(`lowest ratios: ${slowest.map((r) => `${r.file} ${(r.speedup as number).toFixed(1)}× (${(r.docloomMs as number).toFixed(1)} / ${(r.loMs as number).toFixed(0)} ms)`).join('; ')}`);
    const med = median(speedups);
    const p10 = quantile(speedups, 0.1);
    console.log(`${med >= TARGET_MEDIAN ? 'PASS' : 'MISS'} speed-up median ${med.toFixed(1)}× (target ≥ ${TARGET_MEDIAN}×)`);
    console.log(`${p10 >= TARGET_P10 ? 'PASS' : 'MISS'} speed-up 10th percentile ${p10.toFixed(1)}× (target ≥ ${TARGET_P10}×)`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
