/**
 * Service start time with 50,000 documents in the store: from startServer() to the first answered request.
 * Target ≤ 1.5 s. Each start runs in a fresh Node process (nothing warm), three times; the best and the median
 * are reported, and the module import time separately. It starts the compiled service (dist/, `npm run
 * build:server`) when it is built, else the TypeScript source (then the import and the render workers' warm-up
 * include compiling TypeScript). The service runs with its default render workers, warmed before it listens.
 *
 *   node --import tsx bench/start.ts [documents=50000] [runs=3]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchDataDir } from './lib/data-dir.js';
import { fillDocuments } from './lib/store-fill.js';

const IS_CHILD = process.argv[2] === '--child';
const DOCUMENTS = Number((IS_CHILD ? process.argv[4] : process.argv[2]) ?? 50_000);
const RUNS = Number(process.argv[3] ?? 3);
const TARGET_MS = 1500;

interface Timing {
  importMs: number;
  startMs: number;
  firstResponseMs: number;
}

/** The child: imports the service, starts it, asks /api/info once, prints its timings as JSON, stops. */
async function child(dataDir: string): Promise<void> {
  const t0 = performance.now();
  // The compiled service when it is built (what `docloom serve` runs): under tsx the render workers would compile
  // the engine's TypeScript while warming up, which a user's start never does.
  const built = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'index.js');
  const { startServer } = (await import(fs.existsSync(built) ? pathToFileURL(built).href : '../server/index.js')) as typeof import('../server/index.js');
  const t1 = performance.now();
  const server = await startServer({ env: {}, config: { port: 0, dataDir, seedSamples: false, logLevel: 'error' }, log: () => undefined });
  const t2 = performance.now();
  const { token } = await server.createToken('bench');
  const res = await fetch(`${server.url}/api/document?page=1`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { documents: { total: number } };
  const t3 = performance.now();
  if (body.documents.total < DOCUMENTS) throw new Error(`expected ${DOCUMENTS} documents, saw ${body.documents.total}`);
  await server.close();
  const timing: Timing = { importMs: t1 - t0, startMs: t2 - t1, firstResponseMs: t3 - t1 };
  console.log(JSON.stringify(timing));
}

function runChild(dataDir: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const self = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, ['--import', 'tsx', self, '--child', dataDir, String(DOCUMENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Timing) : reject(new Error(`child exited ${code}`))));
  });
}

if (IS_CHILD) {
  await child(process.argv[3]);
} else {
  const dataDir = benchDataDir('docloom-bench-start-');
  try {
    const fillMs = await fillDocuments(dataDir, DOCUMENTS);
    const shardBytes = fs.readdirSync(path.join(dataDir, 'documents/records')).reduce((n, f) => n + fs.statSync(path.join(dataDir, 'documents/records', f)).size, 0);
    console.log(`store: ${DOCUMENTS} documents (${(shardBytes / 1e6).toFixed(1)} MB of shards), filled in ${(fillMs / 1000).toFixed(1)} s`);
    const timings: Timing[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = await runChild(dataDir);
      timings.push(t);
      console.log(`run ${i + 1}: import ${t.importMs.toFixed(0)} ms, startServer ${t.startMs.toFixed(0)} ms, first answered list ${t.firstResponseMs.toFixed(0)} ms after the import`);
    }
    const sorted = timings.map((t) => t.firstResponseMs).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`cpus ${os.cpus().length}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`${median <= TARGET_MS ? 'PASS' : 'MISS'} start to first answer: median ${median.toFixed(0)} ms, best ${sorted[0].toFixed(0)} ms (target ≤ ${TARGET_MS} ms, ${DOCUMENTS} documents)`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
