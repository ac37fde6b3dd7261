/**
 * What a render leaves to the old generation (issue 14; docs/benchmarks.md, session 19, promo19): a render loop in
 * a worker thread with the render workers' limits over each checkout's built engine (dist/), one child process per
 * checkout and round, alternating. Per render: bytes the scavenges promoted (`--trace-gc-nvp`'s `promoted=`, the
 * worker's isolate, after the warm-up), the old generation's growth between mark-compacts, scavenges and
 * mark-compacts per 1,000 renders, the scavenges' pause on the render thread, and the CPU of the render thread and
 * of the whole process. The counts do not depend on the machine's load; the CPU figures do.
 *
 *   node --import tsx bench/gc-promoted.ts [json|docx] [rounds=3] [n=3000] [warm=800] [root=<checkout>]…
 *
 * `root=` (repeatable) the checkouts to compare, built (`npm run build:server`); default this one. `docx`: the Word
 * invoice of bench/lib/invoice-docx.ts instead of resources/templates/invoice.json. Run it with the Node the service
 * ships (`"$(bash scripts/shipped-node.sh)" --import tsx …`): the children use the same binary.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { invoiceDocx, invoiceDocxData } from './lib/invoice-docx.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name: string, dflt: number): number => Number(args.find((a) => a.startsWith(name + '='))?.slice(name.length + 1) ?? dflt);
const docx = args.includes('docx');
const rounds = opt('rounds', 3);
const n = opt('n', 3000);
const warm = opt('warm', 800);
const roots = args.filter((a) => a.startsWith('root=')).map((a) => path.resolve(a.slice(5)));
if (roots.length === 0) roots.push(path.resolve(HERE, '..'));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-promoted-'));
let template = path.join(HERE, '../resources/templates/invoice.json');
let data = path.join(HERE, '../resources/templates/invoice.data.json');
if (docx) {
  template = path.join(tmp, 'invoice.docx');
  data = path.join(tmp, 'invoice.data.json');
  fs.writeFileSync(template, invoiceDocx());
  fs.writeFileSync(data, JSON.stringify(invoiceDocxData(0)));
}

interface ChildResult {
  warmGCs: number;
  minor: number;
  major: number;
  grownKb: number;
  threadMs: number;
  processMs: number;
}

/** The GC lines of the isolate that printed most (the render worker's), after its first `skip`. */
function scavenges(stdout: string, skip: number): { promoted: number; pause: number; count: number; marks: number } {
  const byIsolate = new Map<string, Record<string, string>[]>();
  for (const line of stdout.split('\n')) {
    const m = /^\[\d+:(0x[0-9a-f]+):\d+\]/.exec(line);
    if (!m || !line.includes(' gc=')) continue;
    const fields = Object.fromEntries([...line.matchAll(/(\S+)=(\S+)/g)].map((f) => [f[1], f[2]]));
    byIsolate.set(m[1], [...(byIsolate.get(m[1]) ?? []), fields]);
  }
  const lines = [...byIsolate.values()].sort((a, b) => b.length - a.length)[0]?.slice(skip) ?? [];
  const s = lines.filter((l) => l.gc === 's');
  return {
    promoted: s.reduce((a, l) => a + Number(l.promoted), 0),
    pause: s.reduce((a, l) => a + Number(l.pause), 0),
    count: s.length,
    marks: lines.length - s.length,
  };
}

console.log(`${docx ? 'Word' : '.json'} invoice, ${n} renders after ${warm}, ${rounds} round(s), Node ${process.versions.node}`);
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 === 1 ? roots : [...roots].reverse();
  for (const root of order) {
    const stdout = execFileSync(process.execPath, ['--trace-gc-nvp', path.join(HERE, 'lib/gc-promoted-child.mjs'), root, template, data, docx ? 'docx' : 'json', String(n), String(warm)], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const result = JSON.parse(/^RESULT (.*)$/m.exec(stdout)![1]) as ChildResult;
    const gc = scavenges(stdout, result.warmGCs);
    console.log(
      `round ${round} ${path.basename(root).padEnd(14)} promoted ${(gc.promoted / n / 1024).toFixed(1)} KB/render, old grown ${result.grownKb.toFixed(1)} KB/render, ` +
        `scavenges ${((result.minor * 1000) / n).toFixed(1)} and mark-compacts ${((result.major * 1000) / n).toFixed(1)} per 1,000, ` +
        `scavenge pause ${(gc.pause / n).toFixed(3)} ms, CPU render thread ${result.threadMs.toFixed(3)} ms, process ${result.processMs.toFixed(3)} ms per render ` +
        `(load ${os.loadavg()[0].toFixed(1)})`,
    );
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
