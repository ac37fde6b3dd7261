/**
 * startServer(): config → store → services → Express app → listen on config.host. Used by `docloom serve`, the
 * Electron shell and the tests. Resolves once the service answers; the engine warms up in the background.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConfig, projectRoot, type Config } from './config.js';
import { createApp } from './http/app.js';
import { allowedHosts } from './http/guards.js';
import { openStore } from './store/index.js';
import { loadEngine } from './services/engine.js';
import { createServices } from './services/index.js';
import { createLogger } from './services/log.js';

export type { Config } from './config.js';

export interface StartServerOptions {
  config?: Partial<Config>;
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
  /** A one-time code for `<url>/#/signin?code=<code>` (10 minutes, single use). */
  createSignInCode(): string;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const config = loadConfig(options.env ?? process.env, options.config ?? {});
  const logger = createLogger(config.logLevel, options.log ?? ((line) => console.log(line)));
  const store = await openStore(config.dataDir, { log: logger.info });
  let port = config.port;
  const baseUrl = () => config.publicUrl ?? `http://${hostForUrl(config.host)}:${port}`;
  let services;
  try {
    services = await createServices({ config, store, logger, baseUrl });
  } catch (err) {
    await store.close();
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
    await store.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(`docloom: port ${port} on ${config.host} is already in use (set DOCLOOM_PORT to another port)`, { cause: err });
    }
    throw err;
  }
  port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(config.host, port, config.publicUrl);
  // Warm the engine in the background so the first upload or inline render does not pay for loading it.
  void loadEngine().catch((err: unknown) => logger.error(`engine failed to load: ${(err as Error).stack ?? String(err)}`));

  if (config.seedSamples && !store.meta.samples_seeded) {
    const seeded = await svc.templates.seed(config.resourcesDir, logger.info).catch((err: unknown) => {
      logger.error(`samples: ${(err as Error).message}`);
      return 0;
    });
    if (seeded > 0) logger.info(`samples: ${seeded} template(s) added`);
    store.markSamplesSeeded();
  }
  void svc.sweeper.runOnce();

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl(),
    port,
    config,
    createToken: async (name, opts = {}) => {
      const { record, token } = svc.tokens.create(name, opts.readOnly === true);
      return { id: record.id, token };
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
        await store.close();
      })();
      return closing;
    },
  };
}
