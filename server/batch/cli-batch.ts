/**
 * `docloom batch TEMPLATE ROWS -o OUT_DIR` (docs/batch.md): one document per row, no service needed. The rows
 * file is read once to check it (a bad file makes no document) and once more to render, streamed both times; rows
 * render on a pool of worker threads (services/render-pool.ts, the service's own), --concurrency of them
 * (default: the machine's cores). A failing row does not stop the batch: it is reported on stderr and in
 * errors.csv, and the exit status is 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { loadEngine, useFontsDir } from '../services/engine.js';
import { createRenderer, type Renderer } from '../services/render-pool.js';
import { BATCH_CLI_WORKER_LIMITS } from '../services/render-worker-limits.js';
import type { RenderJob } from '../services/render-core.js';
import { optionalDelimiters } from '../services/validate.js';
import { Violations } from '../services/errors.js';
import { readRows, scanRows, RowsError, type Row } from './rows/index.js';
import { resolveTemplate, TemplateProblem } from './cli-template.js';
import { OutputNames } from './naming.js';
import { ErrorsCsv } from './errors-csv.js';
import { Progress } from './progress.js';
import { ZipWriter } from './zip.js';
import { InOrder, PdfMerger } from './merge.js';

export const BATCH_HELP = `  docloom batch TEMPLATE ROWS -o OUT_DIR [--name "{{field}}"] [--sheet NAME] [--output-type pdf|docx]
                [--test] [--password P] [--locale L] [--zip FILE] [--merge FILE] [--concurrency N]
                                        one document per row of a CSV, XLSX, JSON or NDJSON file
                                        (docs/batch.md); TEMPLATE is a .json/.docx file or a stored
                                        template's uuid, id or name; no service needed`;

class Usage extends Error {}

interface Options {
  template: string;
  rows: string;
  outDir?: string;
  zip?: string;
  merge?: string;
  name?: string;
  sheet?: string;
  outputType?: string;
  test: boolean;
  password?: string;
  locale?: string;
  delimiters?: [string, string];
  concurrency: number;
}

function options(args: string[]): Options {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      zip: { type: 'string' },
      merge: { type: 'string' },
      name: { type: 'string' },
      sheet: { type: 'string' },
      'output-type': { type: 'string' },
      test: { type: 'boolean', default: false },
      password: { type: 'string' },
      locale: { type: 'string' },
      delimiters: { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  const [template, rows, ...extra] = positionals;
  if (!template || !rows || extra.length) throw new Usage('batch needs TEMPLATE ROWS and -o OUT_DIR (or --zip FILE, --merge FILE)');
  if (!values.output && !values.zip && !values.merge) throw new Usage('batch needs -o OUT_DIR, --zip FILE or --merge FILE');
  let concurrency = os.availableParallelism();
  if (values.concurrency !== undefined) {
    concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new Usage('--concurrency must be a whole number from 1 to 256');
  }
  const outputType = values['output-type']?.toLowerCase();
  if (outputType !== undefined && outputType !== 'pdf' && outputType !== 'docx') throw new Usage('--output-type must be pdf or docx');
  if (values.merge && outputType === 'docx') throw new Usage('--merge makes one PDF: it cannot be used with --output-type docx');
  let delimiters: [string, string] | undefined;
  if (values.delimiters !== undefined) {
    const v = new Violations();
    delimiters = optionalDelimiters(v, values.delimiters);
    if (!delimiters) throw new Usage(v.errors.delimiters?.[0] ?? 'bad --delimiters');
  }
  return {
    template,
    rows,
    outDir: values.output,
    zip: values.zip,
    merge: values.merge,
    name: values.name,
    sheet: values.sheet,
    outputType,
    test: values.test ?? false,
    password: values.password,
    locale: values.locale,
    delimiters,
    concurrency,
  };
}

/** The batch's render workers, with the CLI's heap limits (render-worker-limits.ts: memory before a few per cent of speed). */
export function batchRenderer(config: Config, concurrency: number, log: (line: string) => void): Renderer {
  return createRenderer(concurrency, { limits: config.limits, fontsDir: path.join(config.resourcesDir, 'fonts') }, log, BATCH_CLI_WORKER_LIMITS);
}

/** Runs the command; answers the exit status (0 all rows made, 1 a row failed or the batch could not run, 2 usage). */
export async function batchCommand(config: Config, args: string[]): Promise<number> {
  let o: Options;
  try {
    o = options(args);
  } catch (err) {
    console.error(`docloom: ${(err as Error).message}\nRun "docloom --help" for usage.`);
    return 2;
  }
  useFontsDir(path.join(config.resourcesDir, 'fonts'));
  const engine = await loadEngine();
  engine.setMaxImagePixels(config.limits.imagePixels);
  let template;
  try {
    template = resolveTemplate(config, engine, o.template, o.delimiters);
  } catch (err) {
    if (!(err instanceof TemplateProblem)) throw err;
    console.error(err.message);
    return 1;
  }
  const outputType = o.outputType ?? template.outputType;
  if (outputType === 'docx' && template.kind !== 'docx') {
    console.error('docloom: --output-type docx needs a .docx template');
    return 2;
  }
  const password = o.password ?? template.password;
  if (o.merge && password) {
    console.error('docloom: --merge cannot combine password-protected PDFs; leave out --password');
    return 2;
  }

  const limits = { rows: config.limits.batchRows, bytes: config.limits.batchBytes };
  // Started before the check so the threads load the engine while the file is read through.
  let progress: Progress | null = null;
  const pool = batchRenderer(config, o.concurrency, (line) => (progress ? progress.note(`docloom: ${line}`) : console.error(`docloom: ${line}`)));
  let total: number;
  try {
    total = (await scanRows(o.rows, { limits, sheet: o.sheet })).total;
  } catch (err) {
    await pool.close();
    if (err instanceof RowsError) {
      console.error(`${o.rows}: ${err.describe()}`);
      return 1;
    }
    throw err;
  }

  const names = new OutputNames({
    pattern: o.name ?? template.outputFilename ?? undefined,
    templateName: template.name,
    ext: outputType,
    total,
    delimiters: template.delimiters,
    fill: (p, d, delims) => engine.fillOutputText(p, d, delims),
  });
  if (o.outDir) fs.mkdirSync(o.outDir, { recursive: true });
  const errorsDir = o.outDir ?? path.dirname(path.resolve(o.zip ?? o.merge!));
  const errors = new ErrorsCsv(path.join(errorsDir, 'errors.csv'));
  const zip = o.zip ? new ZipWriter(fs.createWriteStream(o.zip)) : null;
  const merger = o.merge ? new PdfMerger() : null;
  const inOrder = merger ? new InOrder<Uint8Array>((bytes) => merger.add(bytes)) : null;
  // DOCLOOM_BATCH_PROGRESS_SECONDS: seconds between two progress lines when stderr is not a terminal (default 3).
  const lineSeconds = Number(process.env.DOCLOOM_BATCH_PROGRESS_SECONDS);
  progress = new Progress({ total, stream: process.stderr, lineSeconds: lineSeconds > 0 ? lineSeconds : undefined });
  const bar = progress;

  const job = (row: Row, name: string): RenderJob => ({
    key: template.key,
    templatePath: template.path,
    kind: template.kind,
    delimiters: template.delimiters,
    data: row.data,
    test: o.test,
    password,
    locale: o.locale ?? null,
    metadata: { title: name.replace(/\.[^.]+$/, ''), creator: 'docloom' },
    output: outputType === 'docx' ? 'docx' : 'pdf',
    editableCopy: false,
    allowPrivateNetwork: config.allowPrivateNetwork,
  });

  let fatal: Error | null = null;
  const one = async (row: Row): Promise<void> => {
    // Names are claimed in row order (this runs synchronously up to the render), so they do not depend on timing.
    const name = names.unique(row.row, row.data);
    const outcome = await pool.render(job(row, name), 'batch');
    if (!outcome.ok) {
      bar.tick(false);
      bar.note(`row ${row.row}: ${outcome.field ? `${outcome.field}: ` : ''}${outcome.message} (${outcome.code})`);
      errors.add({ row: row.row, field: outcome.field ?? null, code: outcome.code, message: outcome.message });
      await inOrder?.put(row.row, null);
      return;
    }
    if (o.outDir) await writeWhole(path.join(o.outDir, name), outcome.bytes);
    if (zip) await zip.add(name, outcome.bytes);
    await inOrder?.put(row.row, outcome.bytes);
    bar.tick(true);
  };

  // Rows in flight: enough to keep every worker fed (the pool queues 2 per worker), few enough that memory stays flat.
  const window = o.concurrency * 4;
  const running = new Set<Promise<void>>();
  try {
    for await (const row of readRows(o.rows, { limits, sheet: o.sheet })) {
      if (fatal) break;
      const p = one(row).catch((err: unknown) => {
        fatal ??= err instanceof Error ? err : new Error(String(err));
      });
      running.add(p);
      void p.finally(() => running.delete(p));
      if (running.size >= window) await Promise.race(running);
    }
    await Promise.all(running);
    if (!fatal) {
      if (zip) await zip.end();
      if (merger && o.merge) {
        await inOrder!.drain();
        await writeWhole(o.merge, await merger.save(template.name));
      }
    }
  } catch (err) {
    fatal ??= err instanceof Error ? err : new Error(String(err));
  } finally {
    await pool.close();
    await errors.close().catch(() => undefined);
  }
  bar.finish();
  if (fatal) {
    console.error(`docloom: the batch stopped: ${fatal.message}`);
    return 1;
  }
  if (errors.count > 0) {
    console.error(`${errors.count} row${errors.count === 1 ? '' : 's'} failed; see ${errors.file}`);
    return 1;
  }
  return 0;
}

/** A half-written file never carries the final name: written beside it, then renamed. */
async function writeWhole(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.partial`;
  await fs.promises.writeFile(tmp, bytes);
  await fs.promises.rename(tmp, file);
}
