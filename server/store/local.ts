/**
 * The local backend of the repository interfaces (store/repositories.ts): the data folder's repositories as they
 * are — lowdb files, the documents' record logs, the idempotency log — each call passed through unchanged. Only
 * the signatures change (a value becomes a resolved promise); what is written, when, and how durably stays theirs.
 */
import fs from 'node:fs';
import { openStore, type Store } from './index.js';
import type { BatchRepo, DocumentRepo, IdempotencyRepo, MetaRepo, Repositories, SettingsRepo, TemplateRepo, TokenRepo } from './repositories.js';
import type { TokenRepository } from './tokens.js';
import type { TemplateRepository } from './templates.js';
import type { DocumentRepository } from './documents.js';
import type { IdempotencyLog } from './idempotency.js';
import type { SettingsRepository } from './settings.js';
import type { BatchRepository } from './batches.js';

/** Runs `read` now and answers its value (or its exception) as a promise, as an async backend would. */
function settle<T>(read: () => T): Promise<T> {
  try {
    return Promise.resolve(read());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

export function localTokens(repo: TokenRepository): TokenRepo {
  return {
    get: (id) => settle(() => repo.get(id)),
    list: () => settle(() => repo.list()),
    create: (input) => settle(() => repo.create(input)),
    touch: (id, at) => settle(() => repo.touch(id, at)),
    removeWhere: (drop) => settle(() => repo.removeWhere(drop)),
    remove: (id) => settle(() => repo.remove(id)),
  };
}

export function localTemplates(repo: TemplateRepository): TemplateRepo {
  return {
    getByUuid: (uuid) => settle(() => repo.getByUuid(uuid)),
    getById: (id) => settle(() => repo.getById(id)),
    count: () => settle(() => repo.count()),
    list: (query) => settle(() => repo.list(query)),
    create: (input, file) => settle(() => repo.create(input, file)),
    update: (uuid, patch, file) => settle(() => repo.update(uuid, patch, file)),
    remove: (uuid) => settle(() => repo.remove(uuid)),
    readFile: (record) => settle(() => repo.readFile(record)),
    localFile: (record) => settle(() => repo.filePath(record)),
  };
}

export function localDocuments(repo: DocumentRepository): DocumentRepo {
  return {
    get: (id) => settle(() => repo.get(id)),
    nextId: () => settle(() => repo.nextId()),
    insert: (record, persist) => repo.insert(record, persist),
    update: (id, patch, persist) => repo.update(id, patch, persist),
    complete: (id, patch, sums, filesDurable) => repo.complete(id, patch, sums, filesDurable),
    remove: (id) => repo.remove(id),
    list: (filter, offset, limit) => settle(() => repo.list(filter, offset, limit)),
    dueForExpiry: (nowMs) => settle(() => repo.dueForExpiry(nowMs)),
    unfinished: () => settle(() => repo.unfinished()),
    flush: () => repo.flush(),
  };
}

export function localIdempotency(log: IdempotencyLog): IdempotencyRepo {
  return {
    get: (key) => settle(() => log.get(key)),
    put: (entry) => log.put(entry),
    prune: () => settle(() => log.prune()),
  };
}

export function localSettings(repo: SettingsRepository): SettingsRepo {
  return {
    get: () => settle(() => repo.get()),
    update: (patch) => settle(() => repo.update(patch)),
  };
}

export function localBatches(repo: BatchRepository): BatchRepo {
  return {
    get incomingDir() {
      return repo.incomingDir;
    },
    get: (id) => settle(() => repo.get(id)),
    nextId: () => settle(() => repo.nextId()),
    list: (offset, limit) => settle(() => repo.list(offset, limit)),
    unfinished: () => settle(() => repo.unfinished()),
    create: (record, rowsFile) => repo.create(record, rowsFile),
    update: (id, patch, persist) => repo.update(id, patch, persist),
    remove: (id) => repo.remove(id),
    rowsFile: (record) => settle(() => repo.rowsFile(record)),
  };
}

function localMeta(store: Store): MetaRepo {
  return {
    schemaVersion: store.meta.schema_version,
    createdAt: store.meta.created_at,
    secret: store.secret,
    samplesSeeded: () => settle(() => store.meta.samples_seeded),
    markSamplesSeeded: () => settle(() => store.markSamplesSeeded()),
  };
}

/** The repositories of a store opened by openStore (the service's whole, exclusive store). */
export function localRepositories(store: Store): Repositories {
  return {
    backend: 'local',
    meta: localMeta(store),
    tokens: localTokens(store.tokens),
    templates: localTemplates(store.templates),
    documents: localDocuments(store.documents),
    idempotency: localIdempotency(store.idempotency),
    settings: localSettings(store.settings),
    batches: localBatches(store.batches),
    ping: () => fs.promises.access(store.dataDir, fs.constants.R_OK | fs.constants.W_OK),
    close: () => store.close(),
  };
}

/** Opens a data folder (exclusively, with the start-up reconcile) as repositories. */
export async function openLocalRepositories(dataDir: string, log?: (line: string) => void): Promise<Repositories> {
  return localRepositories(await openStore(dataDir, { log }));
}
