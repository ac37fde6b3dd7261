/**
 * Start-up reconcile (docs/store.md, "Write order" and "Startup recovery"). Every write is ordered so that a crash
 * at any instant leaves, besides the acknowledged state, only leftovers of unacknowledged work; this removes them
 * and logs one line per action:
 *
 * - temp files (`*.tmp`) in tmp/ and anywhere else in the data dir, unless the process named in the temp file's
 *   name is still running (the CLI writing tokens.json/templates.json while the service starts);
 * - generated files without a completed, unexpired record (a render finished but its record never said so, a
 *   delete or expiry whose record change was on disk before the files went);
 * - completed records whose file is missing: marked expired when they are due, otherwise failed with
 *   `{code: "file_missing"}` (cannot happen with the write order below; kept for files lost outside docloom);
 * - template folders without a record (an upload cut short before its record, a delete cut short after it) and
 *   template version files the record does not name (a replace cut short before its record);
 * - a torn last line of idempotency.jsonl is dropped by IdempotencyLog itself;
 * - what the replay of the documents' record logs found (DocumentRepository.open does it): lines an append cut
 *   short (skipped), and `completed` lines whose files do not match the SHA-256 they carry — the round that
 *   completes a document writes its files and its line together, so a crash in that round can leave the line
 *   without the files; the create was never answered, and the record becomes failed (`interrupted`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Layout } from './layout.js';
import { FILE_MISSING_ERROR } from './records.js';
import type { DocumentRepository } from './documents.js';
import type { TemplateRepository } from './templates.js';
import { tempWriterPid } from './json-file.js';
import { alive } from './lock.js';

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

/** A temp file's writer still runs; this process has written nothing yet, so its pid in a name is a namesake. */
function writerAlive(pid: number): boolean {
  return pid !== process.pid && alive(pid);
}

export class Reconciler {
  readonly #layout: Layout;
  readonly #log: (line: string) => void;
  /** How many things each step removed or changed (for tests and the summary line). */
  readonly counts = { temps: 0, documentFiles: 0, missingFiles: 0, unsaved: 0, tornLines: 0, templateFolders: 0, templateFiles: 0 };

  constructor(layout: Layout, log: (line: string) => void) {
    this.#layout = layout;
    this.#log = log;
  }

  #rel(file: string): string {
    return path.relative(this.#layout.dataDir, file);
  }

  #remove(file: string, why: string): void {
    fs.rmSync(file, { recursive: true, force: true });
    this.#log(`store: reconcile: removed ${this.#rel(file)} (${why})`);
  }

  /** A temp file: removed unless its writer is still running. Returns true when `name` was a temp file. */
  #temp(dir: string, name: string): boolean {
    if (!name.endsWith('.tmp')) return false;
    const pid = tempWriterPid(name);
    if (pid !== null && writerAlive(pid)) {
      this.#log(`store: reconcile: kept ${this.#rel(path.join(dir, name))} (its writer, pid ${pid}, is running)`);
      return true;
    }
    this.#remove(path.join(dir, name), 'temp file of a write cut short');
    this.counts.temps++;
    return true;
  }

  /** tmp/ and the data dir's top level, documents/records: temp files only. */
  temps(): void {
    const tmp = this.#layout.tmp;
    fs.mkdirSync(tmp, { recursive: true });
    for (const e of listDir(tmp)) {
      if (!this.#temp(tmp, e.name)) {
        this.#remove(path.join(tmp, e.name), 'not a temp file');
        this.counts.temps++;
      }
    }
    for (const dir of [this.#layout.dataDir, this.#layout.documentRecordsDir, path.dirname(this.#layout.documentRecordsDir), this.#layout.documentFilesDir, this.#layout.templateFilesDir]) {
      for (const e of listDir(dir)) if (e.isFile()) this.#temp(dir, e.name);
    }
  }

  /** Generated files against their records; records against their files. */
  async documents(repo: DocumentRepository): Promise<void> {
    for (const t of repo.replay.torn) {
      this.counts.tornLines += t.lines;
      this.#log(`store: reconcile: ${t.file}: skipped ${t.lines} unfinished line(s) (an append cut short)`);
    }
    for (const id of repo.replay.unsaved) {
      this.counts.unsaved++;
      this.#log(`store: reconcile: document ${id}: its files had not reached the disk when the service stopped (never answered): marked failed (interrupted)`);
    }
    const present = new Set<string>();
    for (const bucket of listDir(this.#layout.documentFilesDir)) {
      if (!bucket.isDirectory()) continue;
      const dir = path.join(this.#layout.documentFilesDir, bucket.name);
      for (const e of listDir(dir)) {
        if (this.#temp(dir, e.name)) continue;
        const m = /^(\d+)(\.editable)?\.([a-z0-9]+)$/.exec(e.name);
        if (!m) continue; // not a name docloom writes: left alone
        const id = Number(m[1]);
        const editable = m[2] !== undefined;
        const doc = repo.get(id);
        let why: string | null = null;
        if (!doc) why = 'no record';
        else if (doc.status !== 'completed') why = `record is ${doc.status}`;
        else if (doc.expired === 1) why = 'record is expired';
        else if (editable ? !doc.has_editable || m[3] !== 'docx' : m[3] !== doc.output_type) why = 'not a file of its record';
        else if (this.#layout.documentBucket(id) !== dir) why = 'in the wrong bucket';
        if (why) {
          this.#remove(path.join(dir, e.name), why);
          this.counts.documentFiles++;
        } else {
          present.add(e.name);
        }
      }
    }
    const now = new Date().toISOString();
    const writes: Array<Promise<unknown>> = [];
    for (const doc of repo.all()) {
      if (doc.status !== 'completed' || doc.expired === 1) continue;
      const output = path.basename(this.#layout.documentFile(doc.id, doc.output_type));
      if (!present.has(output)) {
        this.counts.missingFiles++;
        if (doc.expires_at <= now) {
          this.#log(`store: reconcile: document ${doc.id} has no file and is due to expire: marked expired`);
          writes.push(repo.update(doc.id, { expired: 1, updated_at: now }));
        } else {
          this.#log(`store: reconcile: document ${doc.id} has no file: marked failed (file_missing)`);
          writes.push(
            repo.update(doc.id, {
              status: 'failed',
              error: { ...FILE_MISSING_ERROR },
              has_editable: false,
              updated_at: now,
            }),
          );
        }
        continue;
      }
      if (doc.has_editable && !present.has(path.basename(this.#layout.documentFile(doc.id, 'docx', 'editable')))) {
        this.counts.missingFiles++;
        this.#log(`store: reconcile: document ${doc.id} has no editable copy: has_editable set to false`);
        writes.push(repo.update(doc.id, { has_editable: false, updated_at: now }));
      }
    }
    await Promise.all(writes);
  }

  /** Template folders against templates.json. */
  templates(repo: TemplateRepository): void {
    const records = new Map(repo.all().map((t) => [t.uuid, t]));
    const root = this.#layout.templateFilesDir;
    for (const e of listDir(root)) {
      if (!e.isDirectory()) continue;
      const dir = path.join(root, e.name);
      const record = records.get(e.name);
      if (!record) {
        this.#remove(dir, 'template folder without a record');
        this.counts.templateFolders++;
        continue;
      }
      const current = `v${record.version}.${record.kind}`;
      let hasCurrent = false;
      for (const f of listDir(dir)) {
        if (this.#temp(dir, f.name)) continue;
        if (f.name === current) {
          hasCurrent = true;
          continue;
        }
        if (/^v\d+\.(json|docx)$/.test(f.name)) {
          this.#remove(path.join(dir, f.name), `template version not in use (current: ${current})`);
          this.counts.templateFiles++;
        }
      }
      if (!hasCurrent) this.#log(`store: reconcile: template ${record.uuid} has no file ${current} (it cannot render until replaced)`);
    }
  }
}
