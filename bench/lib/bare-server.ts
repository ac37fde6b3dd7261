/**
 * A bare server beside docloom's create (bench/http-docx.ts `bare=<mode>`, issue 14): the least any service can do on
 * this machine that answers the same request with the same engine — Node's own `http`, no framework, no store, no
 * checks beyond the token — so the benchmark can tell docloom's own overhead from what the machine, Node and the
 * promises themselves cost. Run as a child process (`node --import tsx bench/lib/bare-server.ts`), one mode each:
 *
 * - `inline`: the render on the event loop (no isolation: a runaway template would stall every request);
 * - `worker`: the render in a worker thread, as docloom renders (the job's data cloned over, the PDF transferred back);
 * - `durable`: `worker`, and before the 201 the write order docloom promises (docs/store.md): the PDF written to a
 *   temp file and renamed into its folder, then at once its fdatasync, the folder's fsync and a record line appended
 *   and fdatasynced (syncs of the folder and the log shared by the requests waiting for them, as a group commit);
 * - `wal`: `worker`, and before the 201 the record and the PDF's bytes written together into a write-ahead log whose
 *   space was allocated (and zeroed, and synced) at start, so its fdatasync is a flush of data only (on a journaled
 *   file system, no commit for a size or an allocation), shared as a group commit; the PDF's own file is written
 *   without a sync (a start would rewrite it from the log). A design docloom does not have — measured to see whether
 *   the targets are within reach of another durable write order (session 18: no gain on this machine, whose ext4 has
 *   no journal). It checkpoints (syncs the files, reuses the log) when the log is full.
 *
 * Bench code, not a product: it parses only the two-field multipart body bench/http-docx.ts sends (or JSON).
 * Environment: BARE_PORT, BARE_TOKEN, BARE_MODE, BARE_DIR (durable), BARE_WORKERS (default 1); for bisecting a
 * difference from docloom's render worker, BARE_YOUNG_MB (the worker's young generation, as
 * services/render-worker-limits.ts sets docloom's) and BARE_CORE=1 (each job through docloom's RenderCore, see
 * bare-worker.ts). Session 18 found neither changed the worker's CPU per document beyond the noise. BARE_POOL=1: the
 * renders go through docloom's own WorkerPool and render worker (dist/) behind this front — the same worker thread
 * as docloom's, without docloom's main thread (session 18, branch worker21).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GroupCommit } from '../../server/store/group-commit.js';
import { ROOT } from './serve.js';
import type { BareJob, BareResult } from './bare-worker.js';

type Mode = 'inline' | 'worker' | 'durable' | 'wal';
const MODE = (process.env.BARE_MODE ?? 'worker') as Mode;
if (!['inline', 'worker', 'durable', 'wal'].includes(MODE)) throw new Error(`bare-server: unknown BARE_MODE ${MODE}`);
const PORT = Number(process.env.BARE_PORT);
const AUTH = `Bearer ${process.env.BARE_TOKEN ?? ''}`;
const DIR = process.env.BARE_DIR ?? '';

const engine = (await import(pathToFileURL(path.join(ROOT, 'dist', 'server', 'engine', 'index.js')).href)) as typeof import('../../server/engine/index.js');
const templates = new Map<string, import('../../server/engine/index.js').CompiledTemplate>();

// ---- renderers ---------------------------------------------------------------------------------------------------

interface Slot {
  worker: Worker;
  busy: number;
}
const slots: Slot[] = [];
const waiting = new Map<number, (r: BareResult) => void>();
let nextJob = 0;
if (MODE !== 'inline' && process.env.BARE_POOL !== '1') {
  for (let i = 0; i < Number(process.env.BARE_WORKERS ?? 1); i++) {
    const young = Number(process.env.BARE_YOUNG_MB ?? 0);
    // Node 20 does not hand tsx's hooks to a worker: the worker registers them itself, then loads its module.
    const entry = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./bare-worker.ts', import.meta.url).href)}); })`;
    const worker = new Worker(entry, { eval: true, ...(young > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: young } } : {}) });
    const slot: Slot = { worker, busy: 0 };
    worker.on('message', (r: BareResult) => {
      slot.busy--;
      waiting.get(r.id)?.(r);
      waiting.delete(r.id);
    });
    worker.on('error', (err) => {
      console.error(err);
      process.exit(1);
    });
    slots.push(slot);
  }
}

/**
 * BARE_POOL=1: the renders go through docloom's own WorkerPool (dist/: its render worker, protocol, bell, zlib gate
 * and heap limits) behind this bare front — to tell what docloom's render thread costs from what its main thread does.
 */
const pool = process.env.BARE_POOL === '1' && MODE !== 'inline' ? await renderPool() : null;
const poolTemplates = new Map<string, { path: string; kind: 'docx' | 'json' }>();

async function renderPool() {
  const dist = (file: string): string => pathToFileURL(path.join(ROOT, 'dist', 'server', ...file.split('/'))).href;
  const { WorkerPool } = (await import(dist('services/render-pool.js'))) as typeof import('../../server/services/render-pool.js');
  const { DEFAULT_LIMITS } = (await import(dist('config.js'))) as typeof import('../../server/config.js');
  const made = new WorkerPool(Number(process.env.BARE_WORKERS ?? 1), { limits: DEFAULT_LIMITS, fontsDir: path.join(ROOT, 'resources', 'fonts') }, (line) => console.error(line));
  await made.ready();
  return made;
}

async function render(uuid: string, data: Record<string, unknown>): Promise<{ bytes: Uint8Array; pages: number }> {
  if (pool) {
    const t = poolTemplates.get(uuid)!;
    const out = await pool.render({ key: uuid, templatePath: t.path, kind: t.kind, delimiters: ['{{', '}}'], data, test: false, password: null, locale: null, metadata: { title: 'Invoice', creator: 'docloom' }, output: 'pdf', editableCopy: false, allowPrivateNetwork: false }, 'interactive');
    if (!out.ok) throw new Error(out.message);
    return { bytes: out.bytes, pages: out.pages ?? 0 };
  }
  if (MODE === 'inline') {
    const out = await engine.renderPdf(templates.get(uuid)!, data, { metadata: { title: 'Invoice', creator: 'docloom' } });
    return { bytes: out.bytes, pages: out.pages };
  }
  const slot = slots.reduce((a, b) => (b.busy < a.busy ? b : a));
  slot.busy++;
  const id = nextJob++;
  const job: BareJob = { id, uuid, data };
  return new Promise((resolve, reject) => {
    waiting.set(id, (r) => (r.error ? reject(new Error(r.error)) : resolve({ bytes: new Uint8Array(r.bytes!), pages: r.pages! })));
    slot.worker.postMessage(job);
  });
}

// ---- durable writes (mode `durable`) -----------------------------------------------------------------------------

/**
 * An fd's fsync as docloom shares one (store/group-commit.ts): every caller waits for a sync begun after its call, and
 * the calls made while one runs share the next.
 */
function sharedSync(fd: number, dataOnly: boolean): GroupCommit {
  return new GroupCommit(() => new Promise<void>((resolve, reject) => (dataOnly ? fs.fdatasync : fs.fsync)(fd, (err) => (err ? reject(err) : resolve()))));
}

let folderSync: GroupCommit;
let logSync: GroupCommit;
let logFd = -1;
let fileCount = 0;
/** The write-ahead log's size (mode `wal`). */
const WAL_MB = 128;
if (MODE === 'durable' || MODE === 'wal') {
  fs.mkdirSync(path.join(DIR, 'tmp'), { recursive: true });
  fs.mkdirSync(path.join(DIR, 'files'), { recursive: true });
  folderSync = sharedSync(fs.openSync(path.join(DIR, 'files'), 'r'), false);
  if (MODE === 'durable') {
    logFd = fs.openSync(path.join(DIR, 'documents.jsonl'), 'a');
  } else {
    // The log's space, written once with zeros and synced: later writes overwrite allocated, initialised blocks.
    logFd = fs.openSync(path.join(DIR, 'wal.bin'), 'w+');
    const zeros = Buffer.alloc(1 << 20);
    for (let i = 0; i < WAL_MB; i++) fs.writeSync(logFd, zeros);
    fs.fsyncSync(logFd);
    fs.fsyncSync(fs.openSync(DIR, 'r'));
  }
  logSync = sharedSync(logFd, true);
}

/** The write order of docs/store.md in its shortest form: temp file, rename, then three syncs at once. */
async function keep(id: number, bytes: Uint8Array, record: object): Promise<void> {
  const temp = path.join(DIR, 'tmp', `${id}.pdf`);
  const fd = fs.openSync(temp, 'wx');
  fs.writeSync(fd, bytes);
  fs.renameSync(temp, path.join(DIR, 'files', `${id}.pdf`));
  fs.writeSync(logFd, JSON.stringify(record) + '\n');
  const fileSynced = new Promise<void>((resolve, reject) =>
    fs.fdatasync(fd, (err) => {
      fs.close(fd, () => undefined);
      if (err) reject(err);
      else resolve();
    }),
  );
  await Promise.all([fileSynced, folderSync.run(), logSync.run()]);
}

let walAt = 0;
/** Files written since the last checkpoint: synced before the log's space is reused. */
let unsynced: string[] = [];

/** The record and the PDF in one frame of the preallocated log, the file beside without a sync; one shared flush. */
async function keepInLog(id: number, bytes: Uint8Array, record: object): Promise<void> {
  const head = Buffer.from(JSON.stringify(record) + '\n');
  const frame = Buffer.allocUnsafe(8 + head.byteLength + bytes.byteLength);
  frame.writeUInt32LE(head.byteLength, 0);
  frame.writeUInt32LE(bytes.byteLength, 4);
  head.copy(frame, 8);
  frame.set(bytes, 8 + head.byteLength);
  if (walAt + frame.byteLength > WAL_MB << 20) checkpoint();
  fs.writeSync(logFd, frame, 0, frame.byteLength, walAt);
  walAt += frame.byteLength;
  const file = path.join(DIR, 'files', `${id}.pdf`);
  fs.writeFileSync(file, bytes);
  unsynced.push(file);
  await logSync.run();
}

/** The log is full: every file it vouches for is made durable, then its space is used again from the start. */
function checkpoint(): void {
  for (const file of unsynced) {
    const fd = fs.openSync(file, 'r');
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
  }
  const dir = fs.openSync(path.join(DIR, 'files'), 'r');
  fs.fsyncSync(dir);
  fs.closeSync(dir);
  unsynced = [];
  walAt = 0;
}

// ---- the request -------------------------------------------------------------------------------------------------

/** The two fields of bench/http-docx.ts's multipart body (template_id, data), or a JSON body. */
function fields(body: string, type: string): { template_id: string; data: Record<string, unknown> } {
  if (type.startsWith('application/json')) return JSON.parse(body) as { template_id: string; data: Record<string, unknown> };
  const boundary = '--' + /boundary=(.+)$/.exec(type)![1];
  const out: Record<string, string> = {};
  for (const part of body.split(boundary)) {
    const m = /name="([^"]+)"\r\n\r\n([\s\S]*)\r\n$/.exec(part);
    if (m) out[m[1]] = m[2];
  }
  return { template_id: out.template_id, data: JSON.parse(out.data) as Record<string, unknown> };
}

function answer(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function create(body: string, type: string, res: http.ServerResponse): Promise<void> {
  const { template_id: uuid, data } = fields(body, type);
  if (!templates.has(uuid)) return answer(res, 422, { message: 'The selected template id is invalid.' });
  const id = ++fileCount;
  const out = await render(uuid, data);
  const now = new Date().toISOString();
  const document = { id, template_id: uuid, status: 'completed', pages: out.pages, size: out.bytes.byteLength, created_at: now, updated_at: now };
  if (MODE === 'durable') await keep(id, out.bytes, document);
  if (MODE === 'wal') await keepInLog(id, out.bytes, document);
  answer(res, 201, { document });
}

/** Registers a template (raw bytes, `?kind=docx|json`) here and in every worker. */
function addTemplate(bytes: Buffer, kind: 'docx' | 'json', res: http.ServerResponse): void {
  const compiled = engine.compileTemplate({ kind, bytes: new Uint8Array(bytes) });
  if (!compiled.ok) return answer(res, 422, { errors: compiled.errors });
  const uuid = `bare-${templates.size + 1}`;
  templates.set(uuid, compiled.template);
  if (pool) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-bare-pool-')), `template.${kind}`);
    fs.writeFileSync(file, bytes);
    poolTemplates.set(uuid, { path: file, kind });
  }
  for (const slot of slots) slot.worker.postMessage({ template: { uuid, kind, bytes } });
  answer(res, 201, { template: { uuid } });
}

const server = http.createServer((req, res) => {
  if (req.headers.authorization !== AUTH) return answer(res, 401, { message: 'Unauthenticated.' });
  const url = new URL(req.url ?? '/', 'http://bare');
  if (req.method === 'GET' && url.pathname === '/api/info') return answer(res, 200, { name: 'bare', mode: MODE, pool_threads: pool ? pool.warmThreads() : null });
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const done = url.pathname === '/bare/template'
      ? Promise.resolve(addTemplate(body, url.searchParams.get('kind') === 'docx' ? 'docx' : 'json', res))
      : create(body.toString('utf8'), req.headers['content-type'] ?? '', res);
    done.catch((err: unknown) => answer(res, 500, { message: String(err) }));
  });
});
server.keepAliveTimeout = 5000;
server.listen(PORT, '127.0.0.1');
