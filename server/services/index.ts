/** Builds the services over an open store. The HTTP layer and the CLI use these, never the store directly. */
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Store } from '../store/index.js';
import type { Repositories } from '../store/repositories.js';
import type { FileStore } from '../store/files/file-store.js';
import { localRepositories } from '../store/local.js';
import { localFileStore } from '../store/files/local.js';
import { DocumentService } from './documents.js';
import { Idempotency } from './idempotency.js';
import { SignedLinks } from './links.js';
import type { Logger } from './log.js';
import { createImporter } from './import-jobs.js';
import { createRenderer, type Renderer } from './render-pool.js';
import { SettingsService } from './settings.js';
import { SignInCodes } from './signin.js';
import { startSweeper, type Sweeper } from './sweeper.js';
import { TemplateService } from './templates.js';
import { TokenAccess } from './token-access.js';
import { BatchService } from '../batch/service.js';
import { TeamBatchFeeder } from '../batch/team-feeder.js';
import { checkHealth, type Health } from './health.js';
import { startQueueWorkers, type QueueWorkers } from './queue-workers.js';

export interface Services {
  config: Config;
  tokens: TokenAccess;
  signIn: SignInCodes;
  templates: TemplateService;
  documents: DocumentService;
  /**
   * Absent only on a shared database opened without a file storage for rows files (a test's services over bare
   * repositories); `docloom serve` and the desktop always have batches.
   */
  batches?: BatchService;
  links: SignedLinks;
  settings: SettingsService;
  renderer: Renderer;
  sweeper: Sweeper;
  /** The absolute base URL (public URL, or the address listened on once known). */
  baseUrl(): string;
  /** GET /api/health: the store, the file storage and the render queue, each ok or down. */
  health(): Promise<Health>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  /** The data folder's store (the desktop): its repositories, its files, its batches. */
  store?: Store;
  /** Or the team server's: records in PostgreSQL (store/pg/), files on disk or in object storage (store/files/). */
  team?: { repos: Repositories; files: FileStore };
  logger: Logger;
  baseUrl: () => string;
  /** Render workers started earlier (startServer starts them before opening the store, so they warm meanwhile). */
  renderer?: Renderer;
}

export async function createServices(o: ServiceOptions): Promise<Services> {
  const { config, logger } = o;
  const store = o.store;
  if (!store && !o.team) throw new Error('createServices needs a store or the team server\'s repositories');
  const repos = store ? localRepositories(store) : o.team!.repos;
  const files = store ? localFileStore(store.files) : o.team!.files;
  // Several instances may share a database: what one instance keeps only in memory the others cannot see.
  const shared = repos.backend !== 'local';
  const tokens = new TokenAccess(repos.tokens);
  // Imports run in their own worker thread whenever renders do (renderWorkers > 0), inline otherwise.
  const importer = createImporter(config.renderWorkers > 0, logger.error);
  const templates = new TemplateService(repos.templates, config.limits, importer);
  // DOCLOOM_ALLOW_PRIVATE_NETWORK is the value until the GUI's switch (PUT /api/settings) first sets one.
  const settings = await SettingsService.open(repos.settings, { allow_private_network: config.allowPrivateNetwork }, shared);
  const renderer = o.renderer ?? createRenderer(config.renderWorkers, { limits: config.limits, fontsDir: path.join(config.resourcesDir, 'fonts') }, logger.error);
  // A shared database's durable render queue: what any instance accepts, any instance renders (docs/team-server.md).
  const instance = `${os.hostname()}:${process.pid}`;
  const queue = await repos.openQueue?.({ instance, leaseMs: config.queueLeaseMs, log: logger.error });
  const documents = new DocumentService({
    repo: repos.documents,
    files,
    templates,
    renderer,
    idempotency: new Idempotency(repos.idempotency, config.queueLeaseMs),
    allowPrivateNetwork: () => settings.allowPrivateNetwork(),
    log: logger.error,
    dataDepth: config.limits.dataDepth,
    queue,
    // A synchronous create renders where it was accepted while a worker here is free (docs/team-server.md).
    reserveRender: () => queueWorkers?.reserve(),
  });
  // Two claimed jobs per render worker keep each worker fed, as the pool's own allowance does (render-pool.ts).
  const workers = Math.max(1, config.renderWorkers);
  const queueWorkers: QueueWorkers | undefined = queue && startQueueWorkers(queue, documents, workers * 2, logger.error, logger.info, workers);
  // On a shared database the unfinished documents are the queue's: another instance may be rendering them, and a
  // dead instance's are taken over once their lease runs out.
  const interrupted = shared ? 0 : await documents.recoverInterrupted();
  if (interrupted > 0) logger.info(`store: ${interrupted} document(s) left unfinished by the last run marked failed`);
  const batches = repos.batches && new BatchService({
    batches: repos.batches,
    // The desktop renders its batches itself; a team server feeds them to the shared queue (batch/team-feeder.ts).
    ...(store ? { local: { documents: store.documents, files: store.files } } : {}),
    ...(queue ? { team: { documents: repos.documents, feeder: new TeamBatchFeeder({
      batches: repos.batches,
      documents: repos.documents,
      queue,
      templates,
      instance,
      leaseMs: config.queueLeaseMs,
      // Rows of one batch waiting in the queue: this instance's takers' slots four times over, enough to keep a few
      // instances like it fed between two looks of the holder.
      window: Math.max(16, workers * 8),
      rowsLimits: { rows: config.limits.batchRows, bytes: config.limits.batchBytes },
      log: logger.error,
      info: logger.info,
    }) } } : {}),
    outputs: files,
    templates,
    renderer,
    limits: config.limits,
    // Rows past the render (file and record being made durable) overlap their fsyncs, which group commit shares:
    // with only the pool's two per worker in flight, a batch would wait on the disk between renders.
    inFlight: Math.max(16, config.renderWorkers * 8),
    allowPrivateNetwork: () => settings.allowPrivateNetwork(),
    log: logger.error,
  });
  const resumed = batches ? await batches.resume() : 0;
  if (resumed > 0) logger.info(`batches: ${resumed} batch(es) left unfinished by the last run go on`);
  let closing = false;
  const sweeper = startSweeper(
    documents,
    async () => {
      await repos.idempotency.prune();
      // Sign-in tokens idle past their lifetime already fail to authenticate; this removes them from the list.
      await tokens.pruneSignInTokens();
    },
    config.sweepIntervalSeconds,
    logger.info,
    repos.exclusively?.bind(repos),
  );
  return {
    config,
    tokens,
    signIn: new SignInCodes(tokens),
    templates,
    documents,
    batches,
    links: new SignedLinks(repos.meta.secret, o.baseUrl, config.downloadLinkMinutes),
    settings,
    renderer,
    sweeper,
    baseUrl: o.baseUrl,
    // The queue: this instance's render pool, and on a team server also its hearing of the shared queue.
    health: () => checkHealth({ database: () => repos.ping(), storage: () => files.ping(), queue: () => !closing && (queue?.listening() ?? true) }),
    async close() {
      closing = true;
      sweeper.stop();
      settings.stop();
      // No new batch rows; the ones in flight end with the pool (an `interrupted` one is rendered after a restart).
      batches?.stop();
      // The shared queue's jobs in hand finish and are recorded; the rest wait in the database for other instances.
      await queueWorkers?.close();
      await queue?.close();
      // Queued renders fail as `interrupted`, running ones finish; then every outcome is recorded.
      await renderer.close();
      await documents.drain();
      await batches?.drain();
      await importer.close();
    },
  };
}
