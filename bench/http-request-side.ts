/**
 * What the service's request side costs its event loop (issue #14's per-document overhead): a real `docloom serve`
 * (bin/docloom.js over dist/, default settings) asked, in blocks of sequential requests over one kept-alive
 * connection, for
 *
 * - `info`: GET /api/info — routing, the token check, a small JSON answer;
 * - `refused-multipart`, `refused-json`: a create refused by validation (`output_type=xyz`, 422) — the whole request
 *   side of a create (routing, token, body, template lookup, the data's parse and checks, an error answer) with no
 *   render and no store write, as multipart (the interface's body) and as JSON;
 * - `create-multipart`, `create-json`: a whole synchronous create of the sample invoice, for scale;
 *
 * and prints, per kind, the client's p50 and the service's main-thread CPU per request (its event loop's
 * `/proc/<pid>/task/<pid>/schedstat`, read around each block: nanoseconds, and nothing of the render worker or
 * the thread pool). The request side's wall time in a sequential create is its CPU (it makes no thread-pool round
 * trip: one read, two stats, the job's post), so this is the figure a change to it moves; measured warm here, it
 * runs 2–3× slower between creates (the `routing_auth` and `body` phases of bench/http-docx.ts).
 *
 * Further arguments are other checkouts (built, node_modules beside them), each served beside this one; blocks
 * alternate between the services, in reverse order every other round, so a before/after difference is not one
 * of the moments measured at. No targets: a measuring tool (docs/benchmarks.md, session 16, branch svc17).
 *
 *   npm run build:server && node --import tsx bench/http-request-side.ts [block=200] [rounds=6] [../before …]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { requireDist, ROOT, startServe, threadCpuMs, type ServeProcess } from './lib/serve.js';
import { percentile } from './lib/stats.js';

requireDist('bench/http-request-side');

const BLOCK = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 6);
const ROOTS = [ROOT, ...process.argv.slice(4).map((r) => path.resolve(r))];
const KINDS = ['info', 'refused-multipart', 'refused-json', 'create-multipart', 'create-json'] as const;
type Kind = (typeof KINDS)[number];

const template = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json'));
const sample = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown>;
const agent = new http.Agent({ keepAlive: true });
const BOUNDARY = '----docloomBench7MA4YWxkTrZu0gW';

interface Ask {
  method: string;
  path: string;
  body?: Buffer;
  type?: string;
  expect: number;
}

function ask(kind: Kind, uuid: string, n: number): Ask {
  if (kind === 'info') return { method: 'GET', path: '/api/info', expect: 200 };
  const data = { ...sample, number: `INV-${n}` };
  const refused = kind.startsWith('refused');
  const expect = refused ? 422 : 201;
  if (kind.endsWith('json')) {
    const body = Buffer.from(JSON.stringify({ template_id: uuid, data, ...(refused ? { output_type: 'xyz' } : {}) }));
    return { method: 'POST', path: '/api/document', body, type: 'application/json', expect };
  }
  const fields: Record<string, string> = { template_id: uuid, data: JSON.stringify(data), ...(refused ? { output_type: 'xyz' } : {}) };
  const part = ([name, value]: [string, string]): string => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.from(Object.entries(fields).map(part).join('') + `--${BOUNDARY}--\r\n`);
  return { method: 'POST', path: '/api/document', body, type: `multipart/form-data; boundary=${BOUNDARY}`, expect };
}

/** One request; resolves with its wall time (ms), rejects unless the answer has the expected status. */
function once(svc: ServeProcess, a: Ask): Promise<number> {
  const headers: Record<string, string | number> = { ...svc.auth };
  if (a.body) {
    headers['content-type'] = a.type!;
    headers['content-length'] = a.body.length;
  }
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port: svc.port, path: a.path, method: a.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode === a.expect) resolve(performance.now() - t);
        else reject(new Error(`${a.method} ${a.path}: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
      });
    });
    // A kept-alive socket the service closed as idle just as this request took it: sent again (bench/http-docx.ts).
    req.on('error', (err: NodeJS.ErrnoException) => (req.reusedSocket && err.code === 'ECONNRESET' ? once(svc, a).then(resolve, reject) : reject(err)));
    req.end(a.body);
  });
}

interface Served {
  label: string;
  svc: ServeProcess;
  uuid: string;
  figures: Map<Kind, { wall: number[]; cpu: number; n: number }>;
}

console.log(`bench/http-request-side: ${os.cpus().length} cpus, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`${ROUNDS} rounds of ${BLOCK} sequential requests per kind and service; service main-thread CPU per request from schedstat`);
const served: Served[] = [];
try {
  for (const root of ROOTS) {
    const svc = await startServe('request-side', {}, root);
    const form = new FormData();
    form.append('file', new Blob([template]), 'invoice.json');
    const res = await fetch(`${svc.base}/api/template`, { method: 'POST', body: form, headers: svc.auth });
    const body = (await res.json()) as { template?: { uuid: string } };
    if (!body.template) throw new Error(`template upload failed: ${res.status} ${JSON.stringify(body)}`);
    served.push({ label: root === ROOT ? 'this checkout' : root, svc, uuid: body.template.uuid, figures: new Map() });
  }
  // Warm-up: every code path compiled, every worker holding the template.
  for (const s of served) for (const kind of KINDS) for (let i = 0; i < 50; i++) await once(s.svc, ask(kind, s.uuid, i));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of KINDS) {
      for (const s of round % 2 === 0 ? served : [...served].reverse()) {
        const f = s.figures.get(kind) ?? { wall: [], cpu: 0, n: 0 };
        s.figures.set(kind, f);
        const asks = Array.from({ length: BLOCK }, (_, i) => ask(kind, s.uuid, i));
        const cpu0 = threadCpuMs(s.svc.pid, s.svc.pid);
        for (const a of asks) f.wall.push(await once(s.svc, a));
        f.cpu += threadCpuMs(s.svc.pid, s.svc.pid) - cpu0;
        f.n += BLOCK;
      }
    }
  }
  for (const kind of KINDS) {
    console.log(`\n${kind}`);
    for (const s of served) {
      const f = s.figures.get(kind)!;
      console.log(`  ${s.label}: p50 ${percentile(f.wall, 50).toFixed(3)} ms, event loop CPU ${(f.cpu / f.n).toFixed(3)} ms per request`);
    }
  }
  console.log(`\nload average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  for (const s of served) await s.svc.stop();
  agent.destroy();
}
