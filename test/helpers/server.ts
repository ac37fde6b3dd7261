/**
 * A real docloom service on a free port over a temporary data dir, for tests (service, GUI, Electron helpers).
 * Samples are not seeded unless asked (`seedSamples: true`); rendering is inline unless `renderWorkers` is given.
 * Every response a test fetches from it is checked against the OpenAPI description (./openapi.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type Config, type ConfigOverrides } from '../../server/index.js';
import { validateResponsesFrom } from './openapi.js';

export interface TestServer {
  /** Base URL, e.g. http://127.0.0.1:40123 (the API is under /api). */
  url: string;
  port: number;
  /** A read-write token. */
  token: string;
  readOnlyToken: string;
  dataDir: string;
  config: Config;
  /** fetch(url + path) with `Authorization: Bearer <token>` unless the init sets its own Authorization. */
  api(pathname: string, init?: RequestInit): Promise<Response>;
  createSignInCode(): string;
  /** Stops the service and removes the data dir. */
  close(): Promise<void>;
  /** Log lines the service wrote (log level from overrides, default 'error'). */
  logs: string[];
}

/**
 * `overrides` are settings as code; `options.env` are DOCLOOM_* variables read as `docloom serve` reads them
 * (default none, so the machine's own variables never leak into a test). Overrides win over variables.
 */
export async function startTestServer(overrides: ConfigOverrides = {}, options: { env?: NodeJS.ProcessEnv } = {}): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-test-'));
  const logs: string[] = [];
  const server = await startServer({
    env: options.env ?? {},
    config: { port: 0, seedSamples: false, renderWorkers: 0, logLevel: 'error', ...overrides, dataDir },
    log: (line) => logs.push(line),
  });
  const { token } = await server.createToken('test');
  const { token: readOnlyToken } = await server.createToken('test (read-only)', { readOnly: true });
  const stopValidating = validateResponsesFrom(server.url);
  return {
    url: server.url,
    port: server.port,
    token,
    readOnlyToken,
    dataDir,
    config: server.config,
    logs,
    createSignInCode: () => server.createSignInCode(),
    api(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return fetch(`${server.url}${pathname}`, { ...init, headers });
    },
    async close() {
      stopValidating();
      await server.close();
      if (!overrides.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
