/**
 * One side of bench/docx-ab.ts: the engine of the checkout given as the first argument (this one or another, e.g.
 * main's), driven like scripts/lib/fidelity-child.ts — per job, `runs` times: read the .docx, compileTemplate with
 * delimiters that occur nowhere in it, renderPdf with data {} — and timed both by the wall clock and by the
 * process's CPU time (process.cpuUsage: every thread, the collector's included), which a loaded machine disturbs
 * less. The first run's PDF is written to `out` when given (to compare the two sides' output).
 *
 *   → {file, runs, out?}   ← {ok: true, wall: [ms…], cpu: [ms…], pages} | {ok: false, error}
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { delimitersFor } from '../../scripts/lib/delimiters.js';

export interface AbJob {
  file: string;
  runs: number;
  out?: string;
}

export type AbAnswer = { ok: true; wall: number[]; cpu: number[]; pages: number } | { ok: false; error: string };

type Engine = typeof import('../../server/engine/index.js');

const root = process.argv[2];
const engine = (await import(pathToFileURL(path.join(root, 'server', 'engine', 'index.ts')).href)) as Engine;

async function job({ file, runs, out }: AbJob): Promise<AbAnswer> {
  const delimiters = delimitersFor(new Uint8Array(fs.readFileSync(file)));
  const wall: number[] = [];
  const cpu: number[] = [];
  let pages = 0;
  for (let i = 0; i < runs; i++) {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const bytes = new Uint8Array(fs.readFileSync(file));
    const compiled = engine.compileTemplate({ kind: 'docx', bytes, delimiters });
    if (!compiled.ok) return { ok: false, error: compiled.errors.map((e) => e.code).join(',') };
    const pdf = await engine.renderPdf(compiled.template, {});
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpu0);
    cpu.push((used.user + used.system) / 1000);
    if (i === 0) {
      pages = pdf.pages;
      if (out) fs.writeFileSync(out, pdf.bytes);
    }
  }
  return { ok: true, wall, cpu, pages };
}

process.on('message', (msg: AbJob) => {
  job(msg).then(
    (answer) => process.send?.(answer),
    (err: unknown) => process.send?.({ ok: false, error: String((err as Error)?.message ?? err) } satisfies AbAnswer),
  );
});
process.send?.({ ready: true });
