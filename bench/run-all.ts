/**
 * Runs every benchmark script at the top of bench/ one after the other (each in its own process, so one cannot
 * warm another's caches) and prints their figures. Each benchmark compares itself with its targets in the same run and prints
 * PASS/MISS lines; this script only sums those lines up. Usage: npm run bench [-- name-filter]
 *
 * Each runs on the Node the desktop app ships (24, scripts/shipped-node.sh) when it is installed, as the README's
 * first command starts the service on it; otherwise on the Node running this script.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
/**
 * Top-level bench/*.ts files that are not benchmarks: this runner, a model module other tests import (it stays
 * beside the benchmarks for them), and diagnostics without targets (service-threads.ts, threads.ts, gc-promoted.ts). Shared helpers live in bench/lib/, which is never run.
 */
const NOT_BENCHMARKS = new Set(['run-all.ts', 'engine-invoice-model.ts', 'service-threads.ts', 'threads.ts', 'gc-promoted.ts']);
const scripts = fs
  .readdirSync(benchDir, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !NOT_BENCHMARKS.has(entry.name) && entry.name.includes(filter))
  .map((entry) => entry.name)
  .sort();

const node = execFileSync('bash', [path.join(benchDir, '..', 'scripts', 'shipped-node.sh')], { encoding: 'utf8' }).trim() || process.execPath;
console.log(`benchmarks on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} (${node})`);

let pass = 0;
let miss = 0;
for (const script of scripts) {
  console.log(`\n=== ${script}`);
  const run = spawnSync(node, ['--import', 'tsx', path.join(benchDir, script)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(run.stdout);
  pass += (run.stdout.match(/\bPASS\b/g) ?? []).length;
  miss += (run.stdout.match(/\bMISS\b/g) ?? []).length;
  if (run.status !== 0) console.log(`(${script} exited with ${run.status})`);
}
console.log(`\nbenchmarks: ${scripts.length} scripts, ${pass} targets met, ${miss} missed`);
