/**
 * docloom's side of the corpus measurement (scripts/fidelity.ts --corpus), in a child process of its own so a
 * crash, a runaway render or an exhausted heap costs one file, not the run. The parent forks it with IPC and
 * sends one job at a time: {file, out, runs}. Per run: read the .docx, compileTemplate with delimiters that occur
 * nowhere in the package, renderPdf with data {} (the file rendered as a static document); the first run's PDF is
 * written to `out`. Messages back:
 *
 *   {type: 'ready'}                                 once, when the engine is loaded
 *   {type: 'run', ms}                               after each run (the parent's timeout is per run)
 *   {type: 'done', status: 'ok', runs: [ms…], pages}
 *   {type: 'done', status: 'refused' | 'render_error' | 'crash', codes: [...], message}
 */
import fs from 'node:fs';
import { compileTemplate, renderPdf, EngineError } from '../../server/engine/index.js';
import { delimitersFor } from './delimiters.js';

export interface ChildJob {
  file: string;
  out: string;
  runs: number;
}

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'run'; ms: number }
  | { type: 'done'; status: 'ok'; runs: number[]; pages: number; delimiters: [string, string] }
  | { type: 'done'; status: 'refused' | 'render_error' | 'crash'; codes: string[]; message: string; delimiters: [string, string] };

function send(msg: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(msg, () => resolve());
  });
}

async function job({ file, out, runs }: ChildJob): Promise<void> {
  const delimiters = delimitersFor(new Uint8Array(fs.readFileSync(file)));
  const times: number[] = [];
  let pages = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    // Reading the file is part of the import: every run starts from the bytes on disk.
    const bytes = new Uint8Array(fs.readFileSync(file));
    let compiled: ReturnType<typeof compileTemplate>;
    try {
      compiled = compileTemplate({ kind: 'docx', bytes, delimiters });
    } catch (err) {
      return send({ type: 'done', status: 'crash', codes: ['compile_threw'], message: String((err as Error)?.stack ?? err), delimiters });
    }
    if (!compiled.ok) {
      const codes = [...new Set(compiled.errors.map((e) => e.code))];
      const message = compiled.errors.slice(0, 3).map((e) => `${e.code}: ${e.message}${e.location?.part ? ` (${e.location.part})` : ''}`).join('; ');
      return send({ type: 'done', status: 'refused', codes, message, delimiters });
    }
    try {
      const pdf = await renderPdf(compiled.template, {});
      times.push(performance.now() - start);
      if (i === 0) {
        fs.writeFileSync(out, pdf.bytes);
        pages = pdf.pages;
      }
    } catch (err) {
      if (err instanceof EngineError) {
        return send({ type: 'done', status: 'render_error', codes: [err.code], message: err.message, delimiters });
      }
      return send({ type: 'done', status: 'crash', codes: ['render_threw'], message: String((err as Error)?.stack ?? err).slice(0, 2000), delimiters });
    }
    await send({ type: 'run', ms: times[times.length - 1] });
  }
  return send({ type: 'done', status: 'ok', runs: times, pages, delimiters });
}

void send({ type: 'ready' });

process.on('message', (msg: ChildJob) => {
  job(msg).catch((err: unknown) => send({ type: 'done', status: 'crash', codes: ['child_threw'], message: String(err), delimiters: ['', ''] }));
});
