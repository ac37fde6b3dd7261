/**
 * Crash harness (issue #10): an acknowledged write must survive a crash. Starts a real `docloom serve` (dist/ via
 * bin/docloom.js; nothing is built here) on a temp data dir, runs concurrent clients that create documents (sync,
 * async=1, with an Idempotency-Key), delete them, upload, replace and delete templates, SIGKILLs the service at a
 * random moment 0.3–3 s in, restarts it on the same data dir and checks everything the clients were told:
 *
 *   npm run crash -- --iterations 50 [--seed N] [--clients N] [--keep]
 *
 * Prints one line per iteration and a summary; exits 1 on any problem (the seed replays the run's choices; the
 * kill's timing against the disk cannot be replayed exactly).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '../test/helpers/random.js';
import { BUILT, cliToken, startServe, type ServeChild } from './lib/serve-child.js';
import { jsonTemplate } from '../test/service/support.js';

interface Options {
  iterations: number;
  seed: number;
  clients: number;
  keep: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { iterations: 20, seed: Date.now() % 1_000_000, clients: 6, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a} needs a whole number`);
      return v;
    };
    if (a === '--iterations') o.iterations = Math.max(1, num());
    else if (a === '--seed') o.seed = num();
    else if (a === '--clients') o.clients = Math.max(1, num());
    else if (a === '--keep') o.keep = true;
    else throw new Error(`unknown option ${a} (use --iterations N, --seed N, --clients N, --keep)`);
  }
  return o;
}

type Body = Record<string, unknown> & { document?: Record<string, unknown>; template?: Record<string, unknown> };

/** What the clients were told (acknowledged), across iterations. */
interface AckedDoc {
  how: 'sync' | 'async' | 'idem';
  /** The status in the acknowledgement. */
  acked: number;
  status: string;
  size: number | null;
}

class Model {
  readonly docs = new Map<number, AckedDoc>();
  /** Deletes acknowledged (must answer 404). */
  readonly deletedDocs = new Set<number>();
  /** Deletes sent without an answer (the document may or may not exist). */
  readonly unsureDocs = new Set<number>();
  /** Being deleted right now (no other client picks them). */
  readonly busyDocs = new Set<number>();
  readonly templates = new Set<string>();
  readonly deletedTemplates = new Set<string>();
  readonly unsureTemplates = new Set<string>();
  readonly busyTemplates = new Set<string>();
  /** Idempotency-Key → the body sent and the document id answered. */
  readonly keys = new Map<string, { body: string; id: number }>();
  keyCounter = 0;
}

interface Counts {
  sync: number;
  async: number;
  idem: number;
  replays: number;
  deletes: number;
  uploads: number;
  replaces: number;
  templateDeletes: number;
}

class Harness {
  readonly model = new Model();
  readonly problems: string[] = [];
  readonly rand: () => number;
  readonly token: string;
  readonly dataDir: string;
  url = '';
  /** Set at the SIGKILL: failures after it are expected. */
  killed = false;

  constructor(dataDir: string, token: string, seed: number) {
    this.dataDir = dataDir;
    this.token = token;
    this.rand = seededRandom(seed);
  }

  problem(what: string): void {
    this.problems.push(what);
  }

  pick<T>(items: Iterable<T>, skip: (t: T) => boolean = () => false): T | undefined {
    const list = [...items].filter((t) => !skip(t));
    return list.length === 0 ? undefined : list[Math.floor(this.rand() * list.length)];
  }

  async call(method: string, pathname: string, body?: FormData | URLSearchParams, headers: Record<string, string> = {}): Promise<{ status: number; body: Body; bytes: Buffer }> {
    const res = await fetch(`${this.url}${pathname}`, {
      method,
      body,
      headers: { authorization: `Bearer ${this.token}`, ...headers },
      signal: AbortSignal.timeout(30_000),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    let parsed: Body = {};
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(bytes.toString('utf8')) as Body;
    return { status: res.status, body: parsed, bytes };
  }

  /** One random operation by one client; a response received counts as acknowledged. */
  async operation(counts: Counts): Promise<void> {
    const m = this.model;
    const r = this.rand();
    const template = this.pick(m.templates, (t) => m.busyTemplates.has(t));
    if (r < 0.08 || template === undefined) {
      const uuidless = `T${Math.floor(this.rand() * 1e6)}`;
      const form = new FormData();
      form.append('name', uuidless);
      form.append('file', new Blob([jsonTemplate([`Crash ${uuidless} {{n}}`])]), 'crash.json');
      const res = await this.call('POST', '/api/template', form);
      if (res.status !== 201) return this.problem(`template upload answered ${res.status}: ${JSON.stringify(res.body)}`);
      m.templates.add(String(res.body.template!.uuid));
      counts.uploads++;
      return;
    }
    if (r < 0.14) {
      m.busyTemplates.add(template);
      try {
        const form = new FormData();
        form.append('file', new Blob([jsonTemplate([`Replaced ${this.rand()} {{n}}`, 'second line'])]), 'crash.json');
        const res = await this.call('PUT', `/api/template/${template}`, form);
        if (res.status !== 200) return this.problem(`template replace ${template} answered ${res.status}: ${JSON.stringify(res.body)}`);
        counts.replaces++;
      } finally {
        m.busyTemplates.delete(template);
      }
      return;
    }
    if (r < 0.18 && m.templates.size > 2) {
      m.busyTemplates.add(template);
      m.templates.delete(template);
      m.unsureTemplates.add(template);
      const res = await this.call('DELETE', `/api/template/${template}`);
      m.busyTemplates.delete(template);
      if (res.status !== 200) return this.problem(`template delete ${template} answered ${res.status}`);
      m.unsureTemplates.delete(template);
      m.deletedTemplates.add(template);
      counts.templateDeletes++;
      return;
    }
    if (r < 0.3) {
      const id = this.pick(m.docs.keys(), (d) => m.busyDocs.has(d) || m.docs.get(d)!.how === 'idem');
      if (id === undefined) return;
      m.busyDocs.add(id);
      const acked = m.docs.get(id)!;
      m.docs.delete(id);
      m.unsureDocs.add(id);
      const res = await this.call('DELETE', `/api/document/${id}`);
      m.busyDocs.delete(id);
      if (res.status !== 200) {
        m.docs.set(id, acked);
        m.unsureDocs.delete(id);
        return this.problem(`delete of document ${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
      m.unsureDocs.delete(id);
      m.deletedDocs.add(id);
      counts.deletes++;
      return;
    }
    if (r < 0.36 && m.keys.size > 0) {
      // A repeat of an acknowledged Idempotency-Key: the same document, whatever happened to the service since.
      const key = this.pick(m.keys.keys())!;
      const { body, id } = m.keys.get(key)!;
      const fields = JSON.parse(body) as Record<string, string>;
      const res = await this.call('POST', '/api/document', new URLSearchParams(fields), { 'idempotency-key': key });
      // The request is validated before the key is looked up: a deleted template answers 422.
      if (res.status === 422 && !m.templates.has(fields.template_id)) return;
      if (res.status !== 201 && res.status !== 202) return this.problem(`replay of Idempotency-Key ${key} answered ${res.status}: ${JSON.stringify(res.body)}`);
      if (Number(res.body.document!.id) !== id) return this.problem(`replay of Idempotency-Key ${key} answered document ${String(res.body.document!.id)}, first ${id}`);
      counts.replays++;
      return;
    }
    const how: AckedDoc['how'] = r < 0.75 ? 'sync' : r < 0.9 ? 'async' : 'idem';
    const fields: Record<string, string> = { template_id: template, data: JSON.stringify({ n: Math.floor(this.rand() * 1e9) }) };
    if (how === 'async' || (how === 'idem' && this.rand() < 0.5)) fields.async = '1';
    const headers: Record<string, string> = {};
    let key: string | undefined;
    if (how === 'idem') {
      key = `crash-${process.pid}-${++m.keyCounter}`;
      headers['idempotency-key'] = key;
    }
    const res = await this.call('POST', '/api/document', new URLSearchParams(fields), headers);
    if (res.status === 422 && !m.templates.has(template)) return; // its template was deleted meanwhile
    const expected = fields.async === '1' ? 202 : 201;
    if (res.status !== expected) return this.problem(`${how} create answered ${res.status} (expected ${expected}): ${JSON.stringify(res.body)}`);
    const doc = res.body.document!;
    const id = Number(doc.id);
    if (m.docs.has(id) || m.deletedDocs.has(id)) this.problem(`document id ${id} handed out twice`);
    m.docs.set(id, { how, acked: res.status, status: String(doc.status), size: typeof doc.size === 'number' ? doc.size : null });
    if (key) m.keys.set(key, { body: JSON.stringify(fields), id });
    counts[how]++;
  }

  async client(counts: Counts): Promise<void> {
    while (!this.killed) {
      try {
        await this.operation(counts);
      } catch (err) {
        if (!this.killed) this.problem(`request failed while the service ran: ${(err as Error).message}`);
      }
    }
  }

  /** Everything the clients were told, checked against the restarted service and the data dir. */
  async verify(label: string): Promise<void> {
    const m = this.model;
    const p = (what: string) => this.problem(`${label}: ${what}`);
    await inParallel([...m.docs], async ([id, acked]) => {
      const res = await this.call('GET', `/api/document/${id}`);
      if (res.status !== 200) {
        p(`acknowledged document ${id} (${acked.how}, ${acked.acked}) answers ${res.status}`);
        return;
      }
      const doc = res.body.document!;
      const status = String(doc.status);
      if (status === 'pending' || status === 'processing') p(`document ${id} is still ${status} after a restart`);
      if (acked.acked === 201 && (status !== acked.status || (acked.status === 'completed' && doc.size !== acked.size))) {
        p(`document ${id} was answered ${acked.status} (${acked.size} bytes), now ${status} (${String(doc.size)} bytes)`);
      }
      if (status === 'completed') {
        const file = await this.call('GET', `/api/document/${id}/download`);
        const text = file.bytes.toString('latin1');
        if (file.status !== 200) p(`completed document ${id}: download answers ${file.status}`);
        else if (!text.startsWith('%PDF-') || !/%%EOF\r?\n?$/.test(text)) p(`completed document ${id}: the file is not a whole PDF (${file.bytes.length} bytes)`);
        else if (file.bytes.length !== doc.size) p(`completed document ${id}: file of ${file.bytes.length} bytes, record says ${String(doc.size)}`);
      }
      // Queued behind two replaces or a delete of its template, an async document fails `template_missing`; any
      // other failure would be a bug of its own (the harness's data always renders).
      const code = (doc.error as { code?: string } | null)?.code;
      if (status === 'failed' && acked.acked === 202 && code !== 'interrupted' && code !== 'template_missing') {
        p(`async document ${id} failed with ${JSON.stringify(doc.error)}`);
      }
    });
    await inParallel([...m.deletedDocs], async (id) => {
      const res = await this.call('GET', `/api/document/${id}`);
      if (res.status !== 404) p(`deleted document ${id} answers ${res.status}`);
    });
    // Templates: every acknowledged one listed and its file served; deleted ones gone.
    const listed = new Set<string>();
    for (let page = 1; ; page++) {
      const res = await this.call('GET', `/api/template?per_page=100&page=${page}`);
      const data = (res.body.templates as { data: Array<{ uuid: string }> }).data;
      for (const t of data) listed.add(t.uuid);
      if (data.length < 100) break;
    }
    for (const uuid of m.templates) {
      if (!listed.has(uuid)) p(`acknowledged template ${uuid} is not listed`);
      const file = await this.call('GET', `/api/template/${uuid}/file`);
      if (file.status !== 200) p(`template ${uuid}: file answers ${file.status}`);
    }
    for (const uuid of m.deletedTemplates) if (listed.has(uuid)) p(`deleted template ${uuid} is listed`);
    const total = ((await this.call('GET', '/api/document?per_page=1')).body.documents as { total: number }).total;
    this.verifyDisk(p, total, listed);
  }

  verifyDisk(p: (what: string) => void, listTotal: number, listedTemplates: Set<string>): void {
    const dir = this.dataDir;
    const parse = (file: string): unknown => {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (err) {
        p(`${path.relative(dir, file)} does not parse: ${(err as Error).message}`);
        return null;
      }
    };
    for (const name of ['meta.json', 'tokens.json', 'templates.json', 'settings.json']) {
      if (fs.existsSync(path.join(dir, name))) parse(path.join(dir, name));
    }
    const idem = fs.existsSync(path.join(dir, 'idempotency.jsonl')) ? fs.readFileSync(path.join(dir, 'idempotency.jsonl'), 'utf8') : '';
    idem.split('\n').forEach((line, i) => {
      if (!line) return;
      try {
        JSON.parse(line);
      } catch {
        p(`idempotency.jsonl line ${i + 1} does not parse`);
      }
    });
    // Records on disk.
    type Rec = { id: number; status: string; expired: number; output_type: string; has_editable: boolean };
    const records = new Map<number, Rec>();
    const recordsDir = path.join(dir, 'documents', 'records');
    // Each shard: its snapshot, then its record logs from the snapshot's log_gen on (docs/store.md).
    const recordNames = fs.readdirSync(recordsDir);
    const shardNos = new Set(recordNames.map((n) => /^shard-(\d+)\./.exec(n)?.[1]).filter((n): n is string => n !== undefined));
    for (const no of shardNos) {
      const m = [no, no];
      const snapshot = path.join(recordsDir, `shard-${no}.json`);
      const shard = fs.existsSync(snapshot) ? (parse(snapshot) as { log_gen?: number; documents: Rec[] } | null) : null;
      const docs = new Map((shard?.documents ?? []).map((d) => [d.id, d]));
      const gens = recordNames
        .map((n) => new RegExp(`^shard-${m[1]}\\.g(\\d+)\\.jsonl$`).exec(n))
        .filter((g): g is RegExpExecArray => g !== null && Number(g[1]) >= (shard?.log_gen ?? 0))
        .sort((a, b) => Number(a[1]) - Number(b[1]));
      for (const g of gens) {
        for (const line of fs.readFileSync(path.join(recordsDir, g[0]), 'utf8').split('\n')) {
          if (!line) continue;
          const entry = JSON.parse(line) as { put?: Rec; del?: number };
          if (entry.del !== undefined) docs.delete(entry.del);
          else if (entry.put) docs.set(entry.put.id, entry.put);
        }
      }
      for (const doc of docs.values()) {
        if (records.has(doc.id)) p(`document id ${doc.id} is on disk twice`);
        records.set(doc.id, doc);
      }
    }
    if (records.size !== listTotal) p(`the list's total is ${listTotal}, the disk holds ${records.size} records`);
    // Files against records.
    const filesDir = path.join(dir, 'documents', 'files');
    const withFile = new Set<number>();
    for (const bucket of fs.existsSync(filesDir) ? fs.readdirSync(filesDir) : []) {
      for (const name of fs.readdirSync(path.join(filesDir, bucket))) {
        const mm = /^(\d+)(\.editable)?\.(\w+)$/.exec(name);
        if (!mm) continue;
        const rec = records.get(Number(mm[1]));
        if (!rec || rec.status !== 'completed' || rec.expired !== 0) p(`file documents/files/${bucket}/${name} has no completed, unexpired record`);
        else if (!mm[2]) withFile.add(rec.id);
      }
    }
    for (const rec of records.values()) {
      if (rec.status === 'completed' && rec.expired === 0 && !withFile.has(rec.id)) p(`completed document ${rec.id} has no file`);
    }
    // Template folders against records.
    const templatesFile = path.join(dir, 'templates.json');
    const templates = (fs.existsSync(templatesFile) ? parse(templatesFile) : null) as { templates: Array<{ id: number; uuid: string }> } | null;
    const uuids = new Set<string>();
    const tids = new Set<number>();
    for (const t of templates?.templates ?? []) {
      if (uuids.has(t.uuid) || tids.has(t.id)) p(`template ${t.uuid} (id ${t.id}) is on disk twice`);
      uuids.add(t.uuid);
      tids.add(t.id);
    }
    if (uuids.size !== listedTemplates.size) p(`templates.json holds ${uuids.size} templates, the list ${listedTemplates.size}`);
    for (const name of fs.readdirSync(path.join(dir, 'templates'))) {
      if (!uuids.has(name)) p(`template folder templates/${name} has no record`);
    }
    // Temp files.
    const tmp = path.join(dir, 'tmp');
    const left = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
    if (left.length > 0) p(`tmp/ holds ${left.length} file(s): ${left.slice(0, 3).join(', ')}`);
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith('.tmp') && path.dirname(full) !== tmp) p(`temp file ${path.relative(dir, full)} left behind`);
      }
    };
    walk(dir);
  }
}

/** Runs `check` over `items`, 8 at a time. */
async function inParallel<T>(items: T[], check: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await check(items[next++]);
  };
  await Promise.all(Array.from({ length: 8 }, lane));
}

function actionKind(line: string): string {
  if (/left unfinished/.test(line)) return 'start(s) marking unfinished documents interrupted';
  if (/torn line/.test(line)) return 'torn idempotency line(s) dropped';
  if (/\.tmp \(/.test(line)) return /kept /.test(line) ? 'temp file(s) kept (live writer)' : 'temp file(s) removed';
  if (/removed documents\/files/.test(line)) return 'orphan document file(s) removed';
  if (/template folder without a record/.test(line)) return 'orphan template folder(s) removed';
  if (/template version not in use/.test(line)) return 'unreferenced template version(s) removed';
  return 'other';
}

function reconcileLines(lines: string[]): string[] {
  return lines.filter((l) => l.includes('store: reconcile:') || l.includes('left unfinished by the last run'));
}

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  if (!BUILT) {
    console.error('crash: dist/ is missing; run `npm run build:server` first (the harness runs the built service).');
    return 2;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-crash-'));
  console.log(`crash: ${o.iterations} iteration(s), seed ${o.seed}, ${o.clients} clients, data dir ${dataDir}`);
  const token = await cliToken(dataDir, 'crash harness');
  const h = new Harness(dataDir, token, o.seed);
  const totals: Counts = { sync: 0, async: 0, idem: 0, replays: 0, deletes: 0, uploads: 0, replaces: 0, templateDeletes: 0 };
  let reconciled = 0;
  const kinds = new Map<string, number>();
  const startTimes: number[] = [];
  let service: ServeChild | undefined;
  try {
    for (let i = 1; i <= o.iterations + 1; i++) {
      const last = i > o.iterations;
      try {
        service = await startServe(dataDir);
      } catch (err) {
        h.problem(`iteration ${i}: the service did not come back: ${(err as Error).message}`);
        break;
      }
      h.url = service.url;
      startTimes.push(service.startMs);
      const actions = reconcileLines(service.lines);
      reconciled += actions.length;
      for (const line of actions) {
        const kind = actionKind(line);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      for (const line of actions) if (/has no (file|editable copy)/.test(line)) h.problem(`iteration ${i}: ${line.trim()}`);
      const before = h.problems.length;
      await h.verify(i === 1 ? 'first start' : `after kill ${i - 1}`);
      if (last) {
        // The final check done, a clean stop: SIGTERM → exit code 0.
        service.child.kill('SIGTERM');
        const { code } = await service.exited;
        if (code !== 0) h.problem(`SIGTERM: the service exited with ${String(code)}`);
        console.log(`final: start ${service.startMs} ms, ${actions.length} reconcile action(s), ${h.problems.length - before} problem(s); SIGTERM exit ${String(code)}`);
        break;
      }
      const counts: Counts = { sync: 0, async: 0, idem: 0, replays: 0, deletes: 0, uploads: 0, replaces: 0, templateDeletes: 0 };
      h.killed = false;
      const delay = 300 + Math.floor(h.rand() * 2700);
      const clients = Array.from({ length: o.clients }, () => h.client(counts));
      await new Promise((resolve) => setTimeout(resolve, delay));
      h.killed = true;
      service.child.kill('SIGKILL');
      await service.exited;
      await Promise.allSettled(clients);
      for (const k of Object.keys(totals) as Array<keyof Counts>) totals[k] += counts[k];
      console.log(
        `iteration ${i}/${o.iterations}: start ${service.startMs} ms, ${actions.length} reconcile action(s), killed after ${delay} ms; ` +
          `acked ${counts.sync} sync, ${counts.async} async, ${counts.idem} keyed (+${counts.replays} replays), ${counts.deletes} deletes, ` +
          `${counts.uploads} uploads, ${counts.replaces} replaces, ${counts.templateDeletes} template deletes; ` +
          `${h.problems.length - before === 0 ? 'ok' : `${h.problems.length - before} problem(s)`}`,
      );
    }
  } finally {
    if (service && service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  }
  const m = h.model;
  console.log(
    `summary: ${o.iterations} kill(s), seed ${o.seed}; acknowledged ${totals.sync} sync, ${totals.async} async, ${totals.idem} keyed creates, ` +
      `${totals.replays} replays, ${totals.deletes} deletes, ${totals.uploads} template uploads, ${totals.replaces} replaces, ${totals.templateDeletes} template deletes; ` +
      `${m.docs.size} documents and ${m.templates.size} templates checked at the end; ${reconciled} reconcile action(s) logged; ` +
      `start ${Math.min(...startTimes)}–${Math.max(...startTimes)} ms; ${h.problems.length} problem(s)`,
  );
  console.log(`reconcile actions: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}`);
  for (const line of h.problems.slice(0, 50)) console.log(`PROBLEM ${line}`);
  if (h.problems.length === 0 && !o.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`crash: data dir kept: ${dataDir}`);
  return h.problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
