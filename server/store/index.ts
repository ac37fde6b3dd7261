/**
 * The store: the one module that knows lowdb and the data dir's layout (docs/store.md). The service opens it
 * whole and exclusively; the CLI opens the parts it needs (tokens, templates) while a service may be running.
 */
import fs from 'node:fs';
import { Layout } from './layout.js';
import { isNoSpace } from '../errors/storage.js';
import { SCHEMA_VERSION, openMeta, readMeta, writeMeta, type Meta } from './meta.js';
import { acquireLock, writeLockFor } from './lock.js';
import { loadSecret } from './secret.js';
import { TokenRepository } from './tokens.js';
import { TemplateRepository } from './templates.js';
import { DocumentRepository } from './documents.js';
import { DocumentFiles } from './document-files.js';
import { IdempotencyLog } from './idempotency.js';
import { SettingsRepository } from './settings.js';
import { Reconciler } from './reconcile.js';
import { BatchRepository } from './batches.js';

export type { DocumentRecord, DocumentStatus, TemplateRecord, TemplateKind, TokenRecord, IdempotencyEntry } from './records.js';
export type { DocumentFilter } from './documents.js';
export type { FileVariant } from './document-files.js';
export type { StoredSettings } from './settings.js';
export { TokenRepository } from './tokens.js';
export { TemplateRepository } from './templates.js';
export { DocumentRepository } from './documents.js';
export { SettingsRepository } from './settings.js';
export { SHARD_SIZE } from './layout.js';
export { BatchRepository, type BatchRecord, type BatchStatus } from './batches.js';

export interface Store {
  readonly dataDir: string;
  /** True when this data dir was created by this open (first start). */
  readonly fresh: boolean;
  readonly meta: Readonly<Meta>;
  readonly secret: Buffer;
  readonly tokens: TokenRepository;
  readonly templates: TemplateRepository;
  readonly documents: DocumentRepository;
  readonly files: DocumentFiles;
  readonly idempotency: IdempotencyLog;
  readonly settings: SettingsRepository;
  readonly batches: BatchRepository;
  markSamplesSeeded(): void;
  /** Waits for pending writes and releases the data dir. */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  log?: (line: string) => void;
}

function prepare(dataDir: string, log: (line: string) => void): { layout: Layout; meta: Meta; fresh: boolean } {
  fs.mkdirSync(dataDir, { recursive: true });
  const layout = new Layout(dataDir);
  // An upgrade (or the first meta.json) is written under write.lock: the service and CLI commands started together
  // must not upgrade the layout twice at once. An up-to-date data dir is only read (a read-only one still lists).
  const current = readMeta(layout);
  const upgrade = current === null || current.schema_version < SCHEMA_VERSION;
  const { meta, fresh } = upgrade ? writeLockFor(dataDir).run(() => openMeta(layout, log)) : openMeta(layout, log);
  return { layout, meta, fresh };
}

/** Opens the whole store for the service; fails if another service holds the data dir. */
export async function openStore(dataDir: string, options: OpenStoreOptions = {}): Promise<Store> {
  const log = options.log ?? (() => undefined);
  // service.lock first: a second service must not touch the data dir (not even to upgrade it).
  fs.mkdirSync(dataDir, { recursive: true });
  const release = acquireLock(new Layout(dataDir), log);
  writeLockFor(dataDir).log = log;
  try {
    const { layout, meta, fresh } = prepare(dataDir, log);
    // Leftovers of writes a crash cut short (docs/store.md, "Write order"), one log line per action.
    const reconciler = new Reconciler(layout, log);
    reconciler.temps();
    const documents = await DocumentRepository.open(layout, log);
    await reconciler.documents(documents);
    const templates = new TemplateRepository(layout);
    // Under write.lock: a `docloom import` writes its folder, then its record, under the same lock. On a full disk
    // the lock file cannot be made, but neither can an import's folder: reconcile without it.
    try {
      writeLockFor(dataDir).run(() => reconciler.templates(templates));
    } catch (err) {
      if (!isNoSpace(err)) throw err;
      reconciler.templates(templates);
    }
    const idempotency = new IdempotencyLog(layout.idempotency, log);
    const batches = await BatchRepository.open(dataDir, log);
    const store: Store = {
      dataDir,
      fresh,
      meta,
      secret: loadSecret(layout),
      tokens: new TokenRepository(layout.tokens),
      templates,
      documents,
      files: new DocumentFiles(layout),
      idempotency,
      settings: new SettingsRepository(layout.settings),
      batches,
      markSamplesSeeded() {
        meta.samples_seeded = true;
        writeLockFor(dataDir).run(() => writeMeta(layout, meta));
      },
      async close() {
        await documents.flush();
        await batches.flush();
        await idempotency.close();
        release();
      },
    };
    return store;
  } catch (err) {
    release();
    throw err;
  }
}

/** Tokens only (the CLI's `token` commands); safe while a service runs on the same data dir. */
export function openTokenStore(dataDir: string): TokenRepository {
  const { layout } = prepare(dataDir, () => undefined);
  return new TokenRepository(layout.tokens);
}

/** Templates only (the CLI's `import`); safe while a service runs on the same data dir. */
export function openTemplateStore(dataDir: string): TemplateRepository {
  const { layout } = prepare(dataDir, () => undefined);
  return new TemplateRepository(layout);
}
