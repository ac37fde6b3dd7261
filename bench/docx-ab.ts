/**
 * This checkout's engine against another checkout's (e.g. main's) on the public corpus of real Word files, the
 * two measured in the same run, file by file and side by side (issue 11: docloom's time is what the speed-up
 * against LibreOffice divides by). Each side is a child process (bench/lib/docx-ab-child.ts) importing its own
 * checkout's engine; per round both get a fresh child warmed on the corpus's first 3 files, as the corpus
 * measurement does (scripts/lib/corpus.ts), then every file: import + compile + render `runs` times, the median
 * kept (the corpus measurement's figure); which side goes first alternates file by file and round by round. A
 * file's time on a side is the median over the rounds, by the wall clock and by CPU time (process.cpuUsage).
 *
 *   node --import tsx bench/docx-ab.ts root=<other checkout> [rounds=3] [runs=4] [only=a,b] [lo=<results.json>]
 *     [out=<dir>] [corpus=<dir>]
 *
 * `lo=` an earlier corpus run's results.json (scripts/fidelity.ts): its LibreOffice times give each side's
 * projected speed-up, and the targets of issue 11 are checked for this checkout (median ≥ 10×, 10th percentile
 * ≥ 5×; the LibreOffice side does not change with docloom's code). `out=` writes each side's PDF of every file
 * (out/this, out/other) to compare what they draw. Without `root=`, or without the corpus, it measures nothing.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AbAnswer, AbJob } from './lib/docx-ab-child.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = path.join(ROOT, 'bench', 'lib', 'docx-ab-child.ts');
const TARGET_MEDIAN = 10;
const TARGET_P10 = 5;
const WARMUP_FILES = 3;
const JOB_TIMEOUT_MS = 300_000;

const args = new Map(process.argv.slice(2).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const));
const other = args.get('root');
const corpus = args.get('corpus') ?? path.join(ROOT, '..', 'shared', 'corpus', 'docx');
const rounds = Number(args.get('rounds') ?? 3);
const runs = Number(args.get('runs') ?? 4);
const only = (args.get('only') ?? '').split(',').filter(Boolean);
const loFile = args.get('lo');
const outDir = args.get('out');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

const geomean = (xs: number[]): number => Math.exp(xs.reduce((n, x) => n + Math.log(x), 0) / xs.length);

class Side {
  private child: ChildProcess | null = null;

  constructor(
    readonly name: 'this' | 'other',
    private readonly root: string,
  ) {}

  async start(warmup: string[]): Promise<void> {
    this.stop();
    const child = fork(CHILD, [this.root], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the ${this.name} child exited (${code}) while starting`)));
    });
    child.removeAllListeners('exit');
    this.child = child;
    for (const file of warmup) await this.run({ file, runs: 2 });
  }

  run(job: AbJob): Promise<AbAnswer> {
    const child = this.child;
    if (!child) return Promise.resolve({ ok: false, error: 'no child' });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        this.child = null;
        resolve({ ok: false, error: 'timeout' });
      }, JOB_TIMEOUT_MS);
      child.once('message', (answer: AbAnswer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      child.send(job);
    });
  }

  stop(): void {
    this.child?.kill();
    this.child = null;
  }
}

interface Times {
  wall: number[];
  cpu: number[];
  pages?: number;
  error?: string;
}

if (!other) {
  console.log('bench/docx-ab: skipped — give root=<other checkout> (e.g. a worktree of main); nothing measured, not a target miss.');
} else if (!fs.existsSync(corpus)) {
  console.log(`bench/docx-ab: skipped — no corpus at ${corpus}; nothing measured, not a target miss.`);
} else {
  const all = fs.readdirSync(corpus).filter((f) => f.toLowerCase().endsWith('.docx')).sort();
  const files = only.length > 0 ? all.filter((f) => only.some((o) => f.includes(o))) : all;
  const warmup = all.slice(0, WARMUP_FILES).map((f) => path.join(corpus, f));
  const sides = [new Side('this', ROOT), new Side('other', path.resolve(other))];
  if (outDir) for (const s of sides) fs.mkdirSync(path.join(outDir, s.name), { recursive: true });
  const times = new Map(sides.map((s) => [s.name, new Map(files.map((f): [string, Times] => [f, { wall: [], cpu: [] }]))]));
  const started = Date.now();
  for (let round = 0; round < rounds; round++) {
    await Promise.all(sides.map((s) => s.start(warmup)));
    for (const [i, file] of files.entries()) {
      const order = (i + round) % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const out = outDir && round === 0 ? path.join(outDir, side.name, file.replace(/\.docx$/i, '.pdf')) : undefined;
        const answer = await side.run({ file: path.join(corpus, file), runs, out });
        const t = times.get(side.name)!.get(file)!;
        if (answer.ok) {
          t.wall.push(median(answer.wall));
          t.cpu.push(median(answer.cpu));
          t.pages = answer.pages;
        } else {
          t.error = answer.error;
          if (answer.error === 'timeout') await side.start(warmup);
        }
      }
    }
    process.stderr.write(`round ${round + 1}/${rounds} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  for (const s of sides) s.stop();

  const lo = new Map<string, number>();
  if (loFile) {
    const rows = (JSON.parse(fs.readFileSync(loFile, 'utf8')) as { rows: { file: string; loMs?: number; lo?: string }[] }).rows;
    for (const r of rows) if (r.lo === 'warm' && r.loMs !== undefined) lo.set(r.file, r.loMs);
  }
  const rows = files.flatMap((file) => {
    const a = times.get('this')!.get(file)!;
    const b = times.get('other')!.get(file)!;
    if (a.error || b.error || a.wall.length === 0 || b.wall.length === 0) {
      console.log(`${file}: not compared (${a.error ?? b.error ?? 'no runs'})`);
      return [];
    }
    const [wa, wb, ca, cb] = [median(a.wall), median(b.wall), median(a.cpu), median(b.cpu)];
    if (a.pages !== b.pages) console.log(`${file}: pages differ — this ${a.pages}, other ${b.pages}`);
    return [{ file, wa, wb, ca, cb, lo: lo.get(file) }];
  });
  console.log(`${rows.length} files, ${rounds} rounds × ${runs} runs per side, this = ${ROOT}, other = ${path.resolve(other)} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  console.log('file | other ms (wall / cpu) | this ms (wall / cpu) | other ÷ this (wall / cpu)' + (lo.size ? ' | speed-up other → this' : ''));
  for (const r of [...rows].sort((x, y) => x.wb / x.wa - y.wb / y.wa)) {
    const proj = r.lo !== undefined ? ` | ${(r.lo / r.wb).toFixed(1)}× → ${(r.lo / r.wa).toFixed(1)}×` : '';
    console.log(`${r.file.slice(0, 60)} | ${r.wb.toFixed(1)} / ${r.cb.toFixed(1)} | ${r.wa.toFixed(1)} / ${r.ca.toFixed(1)} | ${(r.wb / r.wa).toFixed(2)} / ${(r.cb / r.ca).toFixed(2)}${proj}`);
  }
  for (const [label, a, b] of [['wall', 'wa', 'wb'], ['cpu', 'ca', 'cb']] as const) {
    const ratios = rows.map((r) => r[b] / r[a]);
    console.log(
      `${label}: other ÷ this median ${median(ratios).toFixed(3)}, P10 ${quantile(ratios, 0.1).toFixed(3)}, P90 ${quantile(ratios, 0.9).toFixed(3)}, ` +
        `geometric mean ${geomean(ratios).toFixed(3)}; median time other ${median(rows.map((r) => r[b])).toFixed(2)} ms, this ${median(rows.map((r) => r[a])).toFixed(2)} ms; ` +
        `total other ${rows.reduce((n, r) => n + r[b], 0).toFixed(0)} ms, this ${rows.reduce((n, r) => n + r[a], 0).toFixed(0)} ms`,
    );
  }
  const withLo = rows.filter((r) => r.lo !== undefined);
  if (withLo.length > 0) {
    const speed = (key: 'wa' | 'wb'): number[] => withLo.map((r) => (r.lo as number) / r[key]);
    const [thisS, otherS] = [speed('wa'), speed('wb')];
    console.log(`projected speed-up against LibreOffice (${withLo.length} files, its times from ${loFile}): other median ${median(otherS).toFixed(1)}×, P10 ${quantile(otherS, 0.1).toFixed(1)}×; this median ${median(thisS).toFixed(1)}×, P10 ${quantile(thisS, 0.1).toFixed(1)}×`);
    console.log(`${median(thisS) >= TARGET_MEDIAN ? 'PASS' : 'MISS'} projected speed-up median ${median(thisS).toFixed(1)}× (target ≥ ${TARGET_MEDIAN}×)`);
    console.log(`${quantile(thisS, 0.1) >= TARGET_P10 ? 'PASS' : 'MISS'} projected speed-up 10th percentile ${quantile(thisS, 0.1).toFixed(1)}× (target ≥ ${TARGET_P10}×)`);
  }
  const cpuGeo = geomean(rows.map((r) => r.cb / r.ca));
  console.log(`${cpuGeo >= 1 ? 'PASS' : 'MISS'} this checkout not slower than the other: CPU time geometric mean other ÷ this ${cpuGeo.toFixed(3)} (target ≥ 1)`);
}
