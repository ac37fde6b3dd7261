/** Shared helpers for the service tests: fixtures, store filling, multipart bodies. Not a test file itself. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type DocumentRecord } from '../../server/store/index.js';
import type { TestServer } from '../helpers/server.js';

/**
 * A parsed JSON response body. Tests read it field by field and assert every type they rely on, so a loose type
 * is the honest one here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = Record<string, any>;

export function tempDir(prefix = 'docloom-svc-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A one-page docloom .json template; `body` lines become paragraphs (tags allowed). */
export function jsonTemplate(lines: string[], extra: Record<string, unknown> = {}): Buffer {
  const model = {
    version: 1,
    defaults: { run: { font: 'Helvetica', size: 11 }, paragraph: {} },
    sections: [
      {
        page: { width: 595, height: 842, margins: { top: 56, right: 56, bottom: 56, left: 56 } },
        body: lines.map((text) => ({ type: 'paragraph', runs: [{ type: 'text', text }] })),
      },
    ],
    ...extra,
  };
  return Buffer.from(JSON.stringify(model));
}

export const INVOICE_LINES = ['Invoice {{number}}', 'Customer: {{customer.name}}', '{{#items}}', '{{description}}: {{amount}}', '{{/items}}'];

/** Uploads a template (multipart, as a client would) and returns the parsed response. */
export async function uploadTemplate(
  s: TestServer,
  file: { name: string; bytes: Uint8Array; type?: string },
  fields: Record<string, string> = {},
  init: { method?: string; path?: string; token?: string } = {},
): Promise<{ status: number; body: Body }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  const res = await s.api(init.path ?? '/api/template', { method: init.method ?? 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as Body };
}

export async function createInvoiceTemplate(s: TestServer, fields: Record<string, string> = {}): Promise<Body> {
  const { status, body } = await uploadTemplate(s, { name: 'invoice.json', bytes: jsonTemplate(INVOICE_LINES) }, { name: 'Invoice', ...fields });
  if (status !== 201) throw new Error(`template upload failed: ${status} ${JSON.stringify(body)}`);
  return body.template;
}

export const INVOICE_DATA = {
  number: 'INV-0042',
  customer: { name: 'Ada Lovelace' },
  items: [
    { description: 'Analytical engine', amount: '1200.00' },
    { description: 'Punched cards', amount: '35.50' },
  ],
};

/** POSTs a document as multipart (the interface's content type). */
export async function createDocument(s: TestServer, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Body }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await s.api('/api/document', { method: 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as Body };
}

export async function json(res: Response): Promise<Body> {
  return (await res.json()) as Body;
}

export function documentRecord(id: number, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const created = new Date(Date.UTC(2026, 0, 1) + id * 1000).toISOString();
  return {
    id,
    status: 'completed',
    output_filename: `doc-${id}.pdf`,
    output_type: 'pdf',
    template_id: 1,
    template_uuid: '00000000-0000-4000-8000-000000000001',
    editable: 0,
    password: null,
    test: 0,
    locale: null,
    expires_at: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
    expired: 0,
    error: null,
    pages: 1,
    size: 1000,
    has_editable: false,
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

/**
 * Writes `count` document records straight into a (closed) data dir, the way a long-used store looks: a completed,
 * unexpired record gets a stand-in file (the start-up reconcile fails completed records whose file is missing).
 */
export async function fillStore(dataDir: string, count: number, make: (id: number) => Partial<DocumentRecord> = () => ({})): Promise<void> {
  const store = await openStore(dataDir);
  const buckets = new Set<string>();
  for (let i = 0; i < count; i++) {
    const id = store.documents.nextId();
    const record = documentRecord(id, make(id));
    await store.documents.insert(record, false);
    if (record.status === 'completed' && record.expired === 0) {
      const file = store.files.path(id, record.output_type);
      if (!buckets.has(path.dirname(file))) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        buckets.add(path.dirname(file));
      }
      fs.writeFileSync(file, '%PDF-1.4 stand-in\n');
    }
  }
  await store.documents.writeAll();
  await store.close();
}

type DiskRecord = DocumentRecord & Record<string, unknown>;

/**
 * The document records a data dir holds on disk, read the way docs/store.md describes it (each shard's snapshot,
 * then the lines of its record logs from the snapshot's `log_gen` on) — written here, not borrowed from the store,
 * so tests check the format rather than the code under test. Shard by shard, in id order.
 */
export function recordsOnDisk(dataDir: string, shard?: number): DiskRecord[] {
  const dir = path.join(dataDir, 'documents', 'records');
  const names = fs.readdirSync(dir);
  const shards = new Set<number>();
  for (const name of names) {
    const m = /^shard-(\d+)\./.exec(name);
    if (m && (shard === undefined || Number(m[1]) === shard)) shards.add(Number(m[1]));
  }
  const out: DiskRecord[] = [];
  for (const n of [...shards].sort((a, b) => a - b)) {
    const prefix = `shard-${String(n).padStart(6, '0')}`;
    const snapFile = path.join(dir, `${prefix}.json`);
    const snap = fs.existsSync(snapFile) ? (JSON.parse(fs.readFileSync(snapFile, 'utf8')) as { log_gen?: number; documents: DiskRecord[] }) : { documents: [] };
    const docs = new Map(snap.documents.map((d) => [d.id, d]));
    const gens = names
      .map((name) => new RegExp(`^${prefix}\\.g(\\d+)\\.jsonl$`).exec(name))
      .filter((l): l is RegExpExecArray => l !== null && Number(l[1]) >= (snap.log_gen ?? 0))
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    for (const l of gens) replayLog(path.join(dir, l[0]), docs);
    out.push(...[...docs.values()].sort((a, b) => a.id - b.id));
  }
  return out;
}

function replayLog(file: string, docs: Map<number, DiskRecord>): void {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    let entry: { put?: DiskRecord; del?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue; // an append cut short
    }
    if (entry.del !== undefined) docs.delete(entry.del);
    else if (entry.put) docs.set(entry.put.id, entry.put);
  }
}
