/**
 * The data folder `docloom migrate` copies from, opened as the desktop service opens it: exclusively (service.lock,
 * so a running desktop is refused and none can start meanwhile) and with the start-up reconcile, so what is copied
 * is what the desktop would serve. Records are read from memory; files are read one document at a time.
 */
import fs from 'node:fs';
import { openStore, type BatchRecord, type Store } from '../index.js';
import { Layout } from '../layout.js';
import { FILE_MISSING_ERROR, INTERRUPTED_ERROR, type DocumentRecord, type TemplateRecord, type TokenRecord } from '../records.js';
import type { StoredSettings } from '../settings.js';


export interface TemplateFile {
  uuid: string;
  version: number;
  kind: TemplateRecord['kind'];
  bytes: Buffer;
}

export interface DocumentFileBytes {
  output?: Buffer;
  editable?: Buffer;
}

export interface MigrationSource {
  readonly dataDir: string;
  readonly createdAt: string;
  readonly secret: Buffer;
  readonly samplesSeeded: boolean;
  readonly tokens: readonly TokenRecord[];
  readonly templates: readonly TemplateRecord[];
  /** Every file version a template still has in the folder (the current one and the one before it). */
  templateFiles(): TemplateFile[];
  /** Records in id order, as they will be stored (an unfinished one as `failed`, see `prepare`). */
  readonly documents: readonly DocumentRecord[];
  /** The highest document id ever handed out (deleted ones included). */
  readonly lastDocumentId: number;
  readonly settings: Readonly<StoredSettings>;
  /** Batch records in id order, as the folder holds them (an unfinished one goes on on the team server). */
  readonly batches: readonly BatchRecord[];
  /** The highest batch id ever handed out (deleted ones included). */
  readonly lastBatchId: number;
  /** The path of a batch's rows file in the folder; undefined when it is not there. */
  batchRowsFile(batch: BatchRecord): string | undefined;
  /** The files of a document that has them (completed, not expired); none for the others. */
  documentFiles(doc: DocumentRecord): Promise<DocumentFileBytes>;
  close(): Promise<void>;
}

/**
 * The record as the team server gets it: a render left unfinished by the desktop will not be finished there, and a
 * completed document whose file is gone has nothing to serve. updated_at is kept: a re-run must produce the very
 * same record (a resumed migration compares them).
 */
function prepare(doc: DocumentRecord, has: (file: string) => boolean, files: Store['files']): DocumentRecord {
  if (doc.status === 'pending' || doc.status === 'processing') {
    return { ...doc, status: 'failed', error: { ...INTERRUPTED_ERROR }, pages: null, size: null, has_editable: false };
  }
  if (doc.status !== 'completed' || doc.expired === 1) return doc;
  if (!has(files.path(doc.id, doc.output_type))) return { ...doc, status: 'failed', error: { ...FILE_MISSING_ERROR }, has_editable: false };
  if (doc.has_editable && !has(files.path(doc.id, 'docx', 'editable'))) return { ...doc, has_editable: false };
  return doc;
}

export async function openSource(dataDir: string): Promise<MigrationSource> {
  if (!fs.existsSync(dataDir)) throw new Error(`docloom: the data folder ${dataDir} does not exist (give it with --data DIR)`);
  let store: Store;
  try {
    store = await openStore(dataDir);
  } catch (err) {
    const message = (err as Error).message;
    // The lock's own message names the pid; say what to do about it.
    if (/another docloom service/.test(message)) throw new Error(`${message}: stop the desktop app (or its \`docloom serve\`) before migrating`, { cause: err });
    throw err;
  }
  const layout = new Layout(dataDir);
  const documents = store.documents.all().map((doc) => prepare(doc, fs.existsSync, store.files));
  return {
    dataDir,
    createdAt: store.meta.created_at,
    secret: store.secret,
    samplesSeeded: store.meta.samples_seeded,
    tokens: store.tokens.list(),
    templates: store.templates.all(),
    templateFiles() {
      const out: TemplateFile[] = [];
      for (const t of store.templates.all()) {
        let names: string[];
        try {
          names = fs.readdirSync(layout.templateDir(t.uuid));
        } catch {
          continue;
        }
        for (const name of names) {
          const m = /^v(\d+)\.(docx|json)$/.exec(name);
          if (!m || m[2] !== t.kind) continue;
          out.push({ uuid: t.uuid, version: Number(m[1]), kind: t.kind, bytes: fs.readFileSync(layout.templateFile(t.uuid, Number(m[1]), t.kind)) });
        }
      }
      return out;
    },
    documents,
    lastDocumentId: store.documents.lastId,
    settings: store.settings.get(),
    // Oldest first: list() answers newest first.
    batches: store.batches.list(0, Number.MAX_SAFE_INTEGER).items.reverse(),
    lastBatchId: store.batches.lastId,
    batchRowsFile(batch) {
      const file = store.batches.rowsFile(batch);
      return fs.existsSync(file) ? file : undefined;
    },
    async documentFiles(doc) {
      if (doc.status !== 'completed' || doc.expired === 1) return {};
      const output = await fs.promises.readFile(store.files.path(doc.id, doc.output_type));
      const editable = doc.has_editable ? await fs.promises.readFile(store.files.path(doc.id, 'docx', 'editable')) : undefined;
      return { output, editable };
    },
    close: () => store.close(),
  };
}
