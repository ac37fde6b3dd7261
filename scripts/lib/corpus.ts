/**
 * scripts/fidelity.ts --corpus: docloom against LibreOffice on a corpus of real .docx files, each rendered as a
 * static document (data {}, delimiters that occur nowhere in the file). See docs/fidelity.md, "Corpus".
 *
 *   1. docloom, in a child process (scripts/lib/fidelity-child.ts), one file at a time: status, codes, first PDF,
 *      median of 4 runs of import + compile + render; 30 s per run, past which the child is killed (timeout).
 *   2. right after it, the same file by LibreOffice, one warm headless process driven through python3-uno
 *      (scripts/lib/lo-convert.py), seeing only resources/fonts through a fontconfig made from families.ts;
 *      time = load + export + close. A file that kills it (or hangs it) is converted cold and left out of the warm
 *      times. Both sides first convert 3 files unmeasured after each (re)start.
 *   3. Metrics, two files at a time: pages, text similarity, ink F1 of pages 1..min(3, max pages) at 40 dpi.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { ChildJob, ChildMessage } from './fidelity-child.js';
import { baselineDrift, type DriftPage } from './baseline-drift.js';
import { inkF1, lcsRatio, pageImages, pdfPages, pdfWords } from './corpus-metrics.js';
import { writeFontconfig } from './lo-fonts.js';
import { ROOT } from './serve-child.js';

const RUNS = 4;
const RUN_TIMEOUT_MS = 30_000;
const LO_TIMEOUT_MS = 180_000;
const DPI = 40;
const INK_PAGES = 3;
const JOBS = 2;
const WARMUP_FILES = 3;

export type Status = 'ok' | 'refused' | 'render_error' | 'crash' | 'timeout';

export interface CorpusRow {
  file: string;
  bytes: number;
  features: string[];
  status: Status;
  codes?: string[];
  message?: string;
  /** docloom: import + compile + render, median of RUNS runs (ms), and every run. */
  docloomMs?: number;
  docloomRuns?: number[];
  lo: 'warm' | 'cold' | 'failed';
  loError?: string;
  /** LibreOffice warm: load + export + close (ms); absent when the file was converted cold. */
  loMs?: number;
  pagesDocloom?: number;
  pagesLo?: number;
  wordsDocloom?: number;
  wordsLo?: number;
  text?: number;
  textApproximate?: boolean;
  ink?: number;
  inkPages?: number[];
  /** Running-text pages among 1..3 and their first-to-last baseline distance against LibreOffice's. */
  drift?: DriftPage[];
  speedup?: number;
}

interface Options {
  corpus: string;
  only: string | null;
  limit: number;
  work: string;
  out: string;
  json: string;
  runTimeoutMs: number;
  /** --speed-only: times of both sides, no metrics (bench/fidelity-speed.ts). */
  speedOnly: boolean;
  /** --lo-from DIR: LibreOffice's PDFs and times from an earlier run's work folder (its output does not change while
   * docloom does), so a docloom change is measured without waiting for LibreOffice again. */
  loFrom: string | null;
  /** --built: the child runs the built JavaScript (dist/, `npm run build:server`) under plain node, as a render
   * worker runs the engine; without it, the sources under tsx (whose loader adds a naming helper to closures in
   * hot functions: ~3 % of a small file's time that the service never pays). */
  built: boolean;
}

export function argValue(argv: string[], name: string): string | null {
  // The last value given wins (`npm run fidelity` passes a bare --corpus before the user's arguments).
  let value: string | null = null;
  argv.forEach((a, i) => {
    const v = argv[i + 1];
    if (a === name && v !== undefined && !v.startsWith('--')) value = v;
  });
  return value;
}

function options(argv: string[]): Options {
  const limit = Number(argValue(argv, '--limit') ?? Infinity);
  return {
    corpus: path.resolve(argValue(argv, '--corpus') ?? path.join(ROOT, '..', 'shared', 'corpus', 'docx')),
    only: argValue(argv, '--only'),
    limit: Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : Infinity,
    work: path.resolve(argValue(argv, '--work') ?? path.join(ROOT, '.tmp', 'fidelity')),
    out: path.resolve(argValue(argv, '--out') ?? path.join(ROOT, 'docs', 'fidelity.md')),
    json: path.resolve(argValue(argv, '--summary') ?? path.join(ROOT, 'docs', 'fidelity-corpus.json')),
    runTimeoutMs: Number(argValue(argv, '--run-timeout') ?? RUN_TIMEOUT_MS) || RUN_TIMEOUT_MS,
    speedOnly: argv.includes('--speed-only'),
    loFrom: argValue(argv, '--lo-from') === null ? null : path.resolve(argValue(argv, '--lo-from') as string),
    built: argv.includes('--built'),
  };
}

/** MANIFEST.tsv beside the corpus folder: file name → features. */
function manifest(corpus: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const file = path.join(path.dirname(corpus), 'MANIFEST.tsv');
  if (!fs.existsSync(file)) return out;
  const [head, ...rows] = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const cols = head.split('\t');
  const fi = cols.indexOf('file');
  const fe = cols.indexOf('features');
  for (const r of rows) {
    const c = r.split('\t');
    out.set(path.basename(c[fi]), (c[fe] ?? '').split(',').filter(Boolean));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

function log(s: string): void {
  process.stderr.write(`${s}\n`);
}

// ─── docloom ──────────────────────────────────────────────────────────────────────────────────────────────────

/** The measurement's child as `npm run build:server` compiles it. */
const BUILT_CHILD = path.join(ROOT, 'dist', 'scripts', 'lib', 'fidelity-child.js');

class DocloomChild {
  private child: ChildProcess | null = null;

  /** Jobs each fresh child runs first, unmeasured (warm-up). */
  constructor(
    private readonly timeoutMs: number,
    private readonly warmup: ChildJob[],
    private readonly built: boolean,
  ) {}

  /** A fresh child, once it has loaded the engine (its start-up is not part of any run's time limit). */
  private async spawn(): Promise<ChildProcess> {
    const script = this.built ? BUILT_CHILD : path.join(ROOT, 'scripts', 'lib', 'fidelity-child.ts');
    const child = fork(script, [], {
      execArgv: this.built ? [] : ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    child.stderr?.on('data', () => {});
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the docloom child did not start within 120 s')), 120_000);
      child.once('message', () => {
        clearTimeout(t);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(t);
        reject(new Error(`the docloom child exited (${code}) while starting`));
      });
    });
    child.removeAllListeners('exit');
    return child;
  }

  async render(job: ChildJob): Promise<Pick<CorpusRow, 'status' | 'codes' | 'message' | 'docloomMs' | 'docloomRuns'>> {
    if (!this.child || this.child.exitCode !== null) {
      this.child = await this.spawn();
      // A new child's first renders pay for loading fonts and compiling code paths, which a running service has
      // done long before: it renders the warm-up files first (every measured file is still imported afresh).
      for (const w of this.warmup) await this.renderNow(w);
    }
    return this.renderNow(job);
  }

  private async renderNow(job: ChildJob): Promise<Pick<CorpusRow, 'status' | 'codes' | 'message' | 'docloomMs' | 'docloomRuns'>> {
    if (!this.child || this.child.exitCode !== null) this.child = await this.spawn();
    const child = this.child;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish({ status: 'timeout', codes: ['timeout'], message: `a run took longer than ${this.timeoutMs / 1000} s` });
          child.kill('SIGKILL');
          this.child = null;
        }, this.timeoutMs);
      };
      let settled = false;
      const finish = (r: Awaited<ReturnType<DocloomChild['render']>>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(r);
      };
      const onMessage = (m: ChildMessage): void => {
        if (m.type === 'ready') return;
        if (m.type === 'run') return arm();
        if (m.status === 'ok') finish({ status: 'ok', docloomRuns: m.runs, docloomMs: median(m.runs) });
        else finish({ status: m.status, codes: m.codes, message: m.message });
      };
      const onExit = (code: number | null, signal: string | null): void => {
        this.child = null;
        finish({ status: 'crash', codes: [signal ? `signal_${signal}` : `exit_${code}`], message: 'the docloom child process died' });
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      arm();
      child.send(job);
    });
  }

  stop(): void {
    this.child?.kill();
    this.child = null;
  }
}

// ─── LibreOffice ──────────────────────────────────────────────────────────────────────────────────────────────

interface LoAnswer {
  ok: boolean;
  ms?: number;
  error?: string;
  crashed?: boolean;
}

class WarmOffice {
  private proc: ChildProcess | null = null;
  private lines: AsyncIterator<string> | null = null;

  /** `warmup`: files each fresh soffice converts first, unmeasured, to `scratch` (one that kills it is dropped). */
  constructor(
    private readonly profile: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly warmup: string[],
    private readonly scratch: string,
  ) {}

  private async start(): Promise<void> {
    const proc = spawn('/usr/bin/python3', [path.join(ROOT, 'scripts', 'lib', 'lo-convert.py'), this.profile], {
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    proc.stderr?.on('data', () => {});
    this.proc = proc;
    this.lines = readline.createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
    const ready = await this.next(120_000);
    if (!ready || !JSON.parse(ready).ready) throw new Error('LibreOffice (lo-convert.py) did not start');
    for (const file of [...this.warmup]) {
      proc.stdin!.write(`${JSON.stringify({ in: file, out: this.scratch })}\n`);
      const line = await this.next(LO_TIMEOUT_MS);
      if (line === null || (JSON.parse(line) as LoAnswer).crashed) {
        this.warmup.splice(this.warmup.indexOf(file), 1);
        this.kill();
        return this.start();
      }
    }
  }

  private next(timeoutMs: number): Promise<string | null> {
    const lines = this.lines!;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      lines.next().then(
        (r) => {
          clearTimeout(timer);
          resolve(r.done ? null : r.value);
        },
        () => {
          clearTimeout(timer);
          resolve(null);
        },
      );
    });
  }

  kill(): void {
    if (this.proc?.pid) {
      try {
        process.kill(-this.proc.pid, 'SIGKILL');
      } catch {}
    }
    this.proc = null;
    this.lines = null;
  }

  async convert(input: string, output: string): Promise<LoAnswer> {
    if (!this.proc) await this.start();
    this.proc!.stdin!.write(`${JSON.stringify({ in: input, out: output })}\n`);
    const line = await this.next(LO_TIMEOUT_MS);
    if (line === null) {
      this.kill();
      return { ok: false, crashed: true, error: `no answer within ${LO_TIMEOUT_MS / 1000} s` };
    }
    const answer = JSON.parse(line) as LoAnswer;
    if (answer.crashed) this.kill();
    return answer;
  }

  async stop(): Promise<void> {
    if (!this.proc) return;
    const proc = this.proc;
    proc.stdin!.end();
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.kill();
        resolve();
      }, 20_000);
      proc.on('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
    this.proc = null;
  }
}

/** soffice --convert-to pdf in a process of its own (for a file that killed the warm one). */
function coldConvert(input: string, outDir: string, profile: string, env: NodeJS.ProcessEnv): string | null {
  const args = ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', outDir, input];
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = spawnSync('soffice', args, { encoding: 'utf8', timeout: LO_TIMEOUT_MS, env, killSignal: 'SIGKILL' });
    if (res.status === 81) continue;
    if (res.status !== 0) return `soffice exited ${res.status ?? res.signal}`;
    break;
  }
  return fs.existsSync(path.join(outDir, `${path.basename(input, '.docx')}.pdf`)) ? null : 'soffice wrote no PDF';
}

// ─── the run ──────────────────────────────────────────────────────────────────────────────────────────────────

async function pool<T>(items: T[], jobs: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

function loadNow(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' / ');
}

export interface CorpusRun {
  measured: string;
  machine: string;
  loadStart: string;
  loadEnd: string;
  durationS: number;
  command: string;
  corpus: string;
  fontconfig: { fallback: string; mapping: [string, string][] };
  rows: CorpusRow[];
}

export async function measureCorpus(argv: string[]): Promise<CorpusRun> {
  const opt = options(argv);
  const t0 = performance.now();
  const loadStart = loadNow();
  const features = manifest(opt.corpus);
  let files = fs
    .readdirSync(opt.corpus)
    .filter((f) => f.toLowerCase().endsWith('.docx'))
    .sort();
  // Several substrings, comma-separated, take the files matching any of them.
  const wanted = opt.only?.split(',').filter((w) => w !== '') ?? [];
  if (wanted.length > 0) files = files.filter((f) => wanted.some((w) => f.includes(w)));
  files = files.slice(0, opt.limit);
  if (files.length === 0) throw new Error(`no .docx files in ${opt.corpus}${opt.only ? ` matching ${opt.only}` : ''}`);

  fs.rmSync(opt.work, { recursive: true, force: true });
  const dirs = { docloom: path.join(opt.work, 'docloom'), lo: path.join(opt.work, 'libreoffice'), img: path.join(opt.work, 'pages') };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const fc = writeFontconfig(path.join(opt.work, 'fontconfig'));
  const loEnv = { ...process.env, FONTCONFIG_FILE: fc.file, SAL_USE_VCLPLUGIN: 'svp' };

  const rows: CorpusRow[] = files.map((f) => ({
    file: f,
    bytes: fs.statSync(path.join(opt.corpus, f)).size,
    features: features.get(f) ?? [],
    status: 'ok',
    lo: 'failed',
  }));
  const pdfOf = (dir: string, r: CorpusRow): string => path.join(dir, r.file.replace(/\.docx$/i, '.pdf'));

  // 1–2. docloom, then LibreOffice, file by file, so both are timed in the same stretch of (shared) machine time.
  const warmup = rows.slice(0, WARMUP_FILES).map((r) => ({ file: path.join(opt.corpus, r.file), out: path.join(opt.work, 'warmup.pdf'), runs: 2 }));
  if (opt.built && !fs.existsSync(BUILT_CHILD)) throw new Error(`--built: ${path.relative(ROOT, BUILT_CHILD)} is missing (run \`npm run build:server\` first)`);
  log(opt.built ? `docloom's child runs the built engine (${path.relative(ROOT, BUILT_CHILD)}, plain node)` : "docloom's child runs the sources under tsx (--built: the built engine, as the service runs it)");
  const child = new DocloomChild(opt.runTimeoutMs, warmup, opt.built);
  if (opt.loFrom) {
    try {
      reuseLibreOffice(opt.loFrom, rows, (r) => pdfOf(dirs.lo, r));
      for (const [n, r] of rows.entries()) {
        Object.assign(r, await child.render({ file: path.join(opt.corpus, r.file), out: pdfOf(dirs.docloom, r), runs: RUNS }));
        log(`${n + 1}/${rows.length} ${r.file}: docloom ${r.status}${r.docloomMs !== undefined ? ` ${r.docloomMs.toFixed(1)} ms` : ''}; LibreOffice ${r.lo} (from ${opt.loFrom})`);
      }
    } finally {
      child.stop();
    }
  } else {
  const office = new WarmOffice(
    path.join(opt.work, 'lo-profile'),
    loEnv,
    warmup.map((w) => w.file),
    path.join(opt.work, 'warmup-lo.pdf'),
  );
  try {
    for (const [n, r] of rows.entries()) {
      Object.assign(r, await child.render({ file: path.join(opt.corpus, r.file), out: pdfOf(dirs.docloom, r), runs: RUNS }));
      const answer = await office.convert(path.join(opt.corpus, r.file), pdfOf(dirs.lo, r));
      if (answer.ok) {
        r.lo = 'warm';
        r.loMs = answer.ms;
      } else if (answer.crashed) {
        const err = coldConvert(path.join(opt.corpus, r.file), dirs.lo, path.join(opt.work, 'lo-profile-cold'), loEnv);
        r.lo = err ? 'failed' : 'cold';
        r.loError = `warm: ${answer.error}${err ? `; cold: ${err}` : ''}`;
      } else {
        r.lo = 'failed';
        r.loError = answer.error;
      }
      log(
        `${n + 1}/${rows.length} ${r.file}: docloom ${r.status}${r.codes ? ` ${r.codes.join(',')}` : ''}${r.docloomMs !== undefined ? ` ${r.docloomMs.toFixed(1)} ms` : ''}; ` +
          `LibreOffice ${r.lo}${r.loMs !== undefined ? ` ${r.loMs.toFixed(0)} ms` : ''}${r.loError ? ` (${r.loError})` : ''}`,
      );
    }
  } finally {
    child.stop();
    await office.stop();
  }
  }

  // 3. metrics
  await pool(opt.speedOnly ? [] : rows, JOBS, async (r) => {
    const ours = pdfOf(dirs.docloom, r);
    const theirs = pdfOf(dirs.lo, r);
    if (r.status !== 'ok' || r.lo === 'failed' || !fs.existsSync(ours) || !fs.existsSync(theirs)) return;
    try {
      r.pagesDocloom = await pdfPages(ours);
      r.pagesLo = await pdfPages(theirs);
      const a = await pdfWords(ours);
      const b = await pdfWords(theirs);
      r.wordsDocloom = a.length;
      r.wordsLo = b.length;
      const t = lcsRatio(a, b);
      r.text = t.similarity;
      if (t.approximate) r.textApproximate = true;
      const last = Math.min(INK_PAGES, Math.max(r.pagesDocloom, r.pagesLo));
      const dir = fs.mkdtempSync(path.join(dirs.img, 'p-'));
      const imgA = await pageImages(ours, dir, 'a', Math.min(last, r.pagesDocloom), DPI);
      const imgB = await pageImages(theirs, dir, 'b', Math.min(last, r.pagesLo), DPI);
      r.inkPages = [];
      for (let p = 1; p <= last; p++) r.inkPages.push(inkF1(imgA.get(p), imgB.get(p)));
      r.ink = r.inkPages.length ? r.inkPages.reduce((s, x) => s + x, 0) / r.inkPages.length : 1;
      fs.rmSync(dir, { recursive: true, force: true });
      r.drift = await baselineDrift(ours, theirs, last);
      if (r.lo === 'warm' && r.loMs !== undefined && r.docloomMs) r.speedup = r.loMs / r.docloomMs;
    } catch (err) {
      r.loError = `${r.loError ? `${r.loError}; ` : ''}metrics: ${(err as Error).message.split('\n')[0]}`;
    }
    log(`metrics ${r.file}: pages ${r.pagesDocloom}/${r.pagesLo} text ${r.text?.toFixed(3)} ink ${r.ink?.toFixed(3)}`);
  });

  // Without metrics (--speed-only) the speed-up still comes from both sides' times.
  if (opt.speedOnly) for (const r of rows) if (r.speedup === undefined && r.status === 'ok' && r.lo === 'warm' && r.loMs !== undefined && r.docloomMs) r.speedup = r.loMs / r.docloomMs;

  const cpus = os.cpus();
  const loVersion = (spawnSync('soffice', ['--version'], { encoding: 'utf8' }).stdout || '').trim().split('\n')[0];
  const result: CorpusRun = {
    measured: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: `${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${loVersion || 'LibreOffice'}, poppler ${popplerVersion()}`,
    loadStart,
    loadEnd: loadNow(),
    durationS: Math.round((performance.now() - t0) / 1000),
    command: commandLine(argv),
    corpus: path.relative(ROOT, opt.corpus) || '.',
    fontconfig: { fallback: fc.fallback, mapping: fc.mapping },
    rows,
  };
  fs.writeFileSync(path.join(opt.work, 'results.json'), JSON.stringify(result, null, 1));
  return result;
}

/** The run as typed: `npm run fidelity [-- args]` (its own leading bare --corpus and --built left out). */
function commandLine(argv: string[]): string {
  let args = argv[0] === '--corpus' && (argv[1] === undefined || argv[1].startsWith('--')) ? argv.slice(1) : argv;
  if (args[0] === '--built') args = args.slice(1);
  const quoted = args.map((a) => (/^[\w./=:-]+$/.test(a) ? a : `"${a.replace(/"/g, '\\"')}"`));
  return `npm run fidelity${quoted.length ? ` -- ${quoted.join(' ')}` : ''}`;
}

function popplerVersion(): string {
  const r = spawnSync('pdfinfo', ['-v'], { encoding: 'utf8' });
  return /version ([\d.]+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? '?';
}

export { median, quantile, options as corpusOptions };

/** --lo-from: each row takes LibreOffice's PDF, status and time from an earlier run (a file it lacks: failed). */
function reuseLibreOffice(from: string, rows: CorpusRow[], target: (r: CorpusRow) => string): void {
  const earlier = JSON.parse(fs.readFileSync(path.join(from, 'results.json'), 'utf8')) as CorpusRun;
  const byFile = new Map(earlier.rows.map((r) => [r.file, r]));
  for (const r of rows) {
    const old = byFile.get(r.file);
    const pdf = path.join(from, 'libreoffice', path.basename(target(r)));
    if (!old || !fs.existsSync(pdf)) {
      r.lo = 'failed';
      r.loError = `not in ${from}`;
      continue;
    }
    fs.copyFileSync(pdf, target(r));
    r.lo = old.lo;
    if (old.loMs !== undefined) r.loMs = old.loMs;
    if (old.loError !== undefined) r.loError = old.loError;
  }
}
