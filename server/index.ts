/**
 * startServer(): config → store → services → Express app → listen on config.host. Used by `docloom serve`, the
 * Electron shell and the tests. Resolves once the service answers; the engine warms up in the background.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConfig, projectRoot, requirePublicUrlBeyondLoopback, type Config, type ConfigOverrides } from './config.js';
import { createApp } from './http/app.js';
import { allowedHosts } from './http/guards.js';
import { openStore, type Store } from './store/index.js';
import { openDatabase } from './store/open-database.js';
import type { Repositories } from './store/repositories.js';
import type { FileStore } from './store/files/file-store.js';
import { DocumentFiles } from './store/document-files.js';
import { Layout } from './store/layout.js';
import { localRepositories } from './store/local.js';
import { localFileStore } from './store/files/local.js';
import { loadEngine, useFontsDir } from './services/engine.js';
import { createRenderer } from './services/render-pool.js';
import { createServices } from './services/index.js';
import { createLogger } from './services/log.js';

export type { Config, ConfigOverrides } from './config.js';

export interface StartServerOptions {
  /** Settings as code, over the DOCLOOM_* variables (`limits` may name only some limits). */
  config?: ConfigOverrides;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Folder of the built GUI (default: <project>/dist/renderer). */
  guiDir?: string;
}

export interface RunningServer {
  /** The service's base URL, e.g. http://127.0.0.1:7463 (the API is under /api). */
  url: string;
  port: number;
  config: Config;
  close(): Promise<void>;
  createToken(name: string, opts?: { readOnly?: boolean }): Promise<{ id: number; token: string }>;
  /** Revokes a token by id (it stops working at once); false when there was no such token. */
  revokeToken(id: number): Promise<boolean>;
  /** Revokes every token with this exact name (e.g. the desktop window's, left behind by a crashed run). */
  revokeTokensNamed(name: string): Promise<number>;
  /** A one-time code for `<url>/#/signin?code=<code>` (10 minutes, single use). */
  createSignInCode(): string;
}

/** The error for a port another program holds: a sentence a person can act on, and the code programs test. */
function portInUse(port: number, host: string, cause: unknown): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(
    `docloom: port ${port} on ${host} is already in use by another program (or another docloom); stop it, or set DOCLOOM_PORT to another port (0 picks a free one)`,
    { cause },
  );
  err.code = 'EADDRINUSE';
  return err;
}

/** Says at start, rather than at the first render, when the resources folder has no fonts to render with. */
function checkFontsDir(dir: string, log: (line: string) => void): void {
  let files: string[] = [];
  try {
    files = fs.readdirSync(dir);
  } catch {
    // reported below, like an empty folder
  }
  if (!files.some((f) => /\.ttf$/i.test(f))) {
    log(`fonts: no .ttf files in ${dir}; documents will fail to render. Set DOCLOOM_RESOURCES_DIR to a folder holding fonts/ and templates/.`);
  }
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Longest a start waits for warm render workers, counted from when they were started. */
const WARM_WAIT_MS = 1000;

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const config = loadConfig(options.env ?? process.env, options.config ?? {});
  requirePublicUrlBeyondLoopback(config);
  const logger = createLogger(config.logLevel, options.log ?? ((line) => console.log(line)));
  if (config.s3 && !config.database) {
    // Object storage is served with the team server's database only: the data folder's start-up check of its
    // documents' files (docs/store.md) reads them on this disk. Refused rather than files quietly kept on disk.
    throw new Error(
      'docloom: DOCLOOM_S3_BUCKET is set without DOCLOOM_DATABASE_URL: files in object storage are served only with a PostgreSQL database (see docs/team-server.md). Set DOCLOOM_DATABASE_URL, or unset the DOCLOOM_S3_* settings to keep files in the data folder.',
    );
  }
  // The engine's default is <project>/resources/fonts, which a packaged app does not have: name the configured
  // folder for renders on this thread (the render workers get it as workerData). Through services/engine.ts,
  // which takes setFontsDir from the PDF module's public file until the facade re-exports it.
  const fontsDir = path.join(config.resourcesDir, 'fonts');
  useFontsDir(fontsDir);
  checkFontsDir(fontsDir, logger.error);
  // Render workers first: they load the engine and warm up (seconds on a busy machine) while the store is opened.
  const startedAt = performance.now();
  const renderer = createRenderer(config.renderWorkers, { limits: config.limits, fontsDir }, logger.error);
  // The desktop: the data folder's store (exclusive). The team server: PostgreSQL, files in object storage or in
  // this instance's data folder (docs/team-server.md).
  let store: Store | undefined;
  let repos: Repositories;
  let files: FileStore;
  try {
    if (config.database) {
      files = config.s3
        ? (await import('./store/files/s3.js')).s3FileStore(config.s3)
        : localFileStore(new DocumentFiles(new Layout(config.dataDir)));
      repos = await openDatabase(config, logger.info, files);
    } else {
      store = await openStore(config.dataDir, { log: logger.info });
      repos = localRepositories(store);
      files = localFileStore(store.files);
    }
  } catch (err) {
    await renderer.close();
    throw err;
  }
  let port = config.port;
  const baseUrl = () => config.publicUrl ?? `http://${hostForUrl(config.host)}:${port}`;
  let services;
  try {
    services = await createServices({ config, ...(store ? { store } : { team: { repos, files } }), logger, baseUrl, renderer });
  } catch (err) {
    await renderer.close();
    await repos.close();
    throw err;
  }
  const svc = services;
  let hosts = allowedHosts(config.host, port, config.publicUrl);
  const app = createApp({
    services: svc,
    logger,
    allowedHosts: () => hosts,
    guiDir: options.guiDir ?? path.join(projectRoot(), 'dist', 'renderer'),
  });
  // The render workers were started before the store was opened and warm up (engine, fonts, a page) meanwhile; the
  // service listens once they are warm, so the first document does not pay for it — but within the start budget
  // (1.5 s with 50,000 documents, docs/benchmarks.md): on a machine too busy for that, it listens anyway and the
  // first documents queue until a worker is warm.
  await svc.renderer.ready(WARM_WAIT_MS - (performance.now() - startedAt));
  const server = http.createServer(app);
  // Slow clients must not hold sockets forever; long renders are far below these.
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await svc.close();
    await repos.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw portInUse(port, config.host, err);
    throw err;
  }
  port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(config.host, port, config.publicUrl);
  // Warm the engine in the background so the first upload or inline render does not pay for loading it.
  void loadEngine().catch((err: unknown) => logger.error(`engine failed to load: ${(err as Error).stack ?? String(err)}`));

  if (config.seedSamples && !(await repos.meta.samplesSeeded())) {
    const seeded = await svc.templates.seed(config.resourcesDir, logger.info).catch((err: unknown) => {
      logger.error(`samples: ${(err as Error).message}`);
      return 0;
    });
    if (seeded > 0) logger.info(`samples: ${seeded} template(s) added`);
    try {
      await repos.meta.markSamplesSeeded();
    } catch (err) {
      // A full disk: offered again at the next start; the service runs all the same.
      logger.error(`samples: not marked as offered: ${(err as Error).message}`);
    }
  }
  void svc.sweeper.runOnce();

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl(),
    port,
    config,
    createToken: async (name, opts = {}) => {
      const { record, token } = await svc.tokens.create(name, opts.readOnly === true);
      return { id: record.id, token };
    },
    revokeToken: async (id) => svc.tokens.revokeIfPresent(id),
    revokeTokensNamed: async (name) => {
      let revoked = 0;
      for (const t of await svc.tokens.list()) if (t.name === name && (await svc.tokens.revokeIfPresent(t.id))) revoked++;
      return revoked;
    },
    createSignInCode: () => svc.signIn.create(),
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Requests still running get a moment to finish, then their sockets go.
          setTimeout(() => server.closeAllConnections(), 2_000).unref();
        });
        await svc.close();
        await repos.close();
      })();
      return closing;
    },
  };
}
