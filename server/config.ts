/**
 * The only reader of environment variables and settings. Everything else receives a frozen Config.
 * Every variable, its default and its meaning is listed in docs/configuration.md; keep the two in step.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { parseDatabaseUrl, type DatabaseUrl } from './store/pg/url.js';
import { parseS3Settings, type S3Settings } from './store/files/s3-settings.js';

export interface Limits {
  /** Bytes of an uploaded template file. */
  templateUploadBytes: number;
  /** Bytes of all entries of a .docx once inflated. */
  docxUncompressedBytes: number;
  /** Largest inflated/compressed ratio of one .docx entry. */
  docxEntryRatio: number;
  /** Bytes of a request body (JSON, form or multipart fields). */
  requestBodyBytes: number;
  /** Rows of one list or table in the data. */
  rowsPerList: number;
  imagesPerDocument: number;
  imageBytes: number;
  imagePixels: number;
  imageFetchMs: number;
  /** Levels of objects and arrays in a request's `data` (the data object itself is level 1). */
  dataDepth: number;
  /** Milliseconds one render may take (checked while it runs; a render worker past it is stopped). */
  renderMs: number;
  /** Pages one PDF may have (counted as the layout makes them). */
  pagesPerDocument: number;
  /** Data rows of one batch's rows file (docs/batch.md). */
  batchRows: number;
  /** Bytes of one batch's rows file. */
  batchBytes: number;
}

export interface Config {
  host: string;
  port: number;
  /** Absolute URL used in download links and page links; defaults to http://host:port. */
  publicUrl: string | null;
  dataDir: string;
  resourcesDir: string;
  /** Origins allowed by CORS; empty = no CORS headers at all. */
  corsOrigins: readonly string[];
  /** Lets image URLs reach loopback/private addresses (off by default: CONTRACT.md §9). */
  allowPrivateNetwork: boolean;
  /** Minutes a signed download link stays valid. */
  downloadLinkMinutes: number;
  /** Seconds between two sweeps for expired documents. */
  sweepIntervalSeconds: number;
  /**
   * DOCLOOM_QUEUE_LEASE_MS: on a team server, how long a claimed render job is held without renewal (renewed every
   * third of it while rendering); a dead instance's jobs are taken over once it runs out (docs/team-server.md).
   */
  queueLeaseMs: number;
  /** Render worker threads; 0 renders on the main thread. */
  renderWorkers: number;
  /** Offer the sample templates from resources/templates on first start. */
  seedSamples: boolean;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  /**
   * DOCLOOM_PROFILE: time the phases of every POST /api/document and answer them in a `Server-Timing` header
   * (services/profile.ts). For measuring; off by default.
   */
  profile: boolean;
  limits: Limits;
  /**
   * DOCLOOM_DATABASE_URL: the PostgreSQL store of a team server (docs/team-server.md); null = the data folder.
   * Checked here so a malformed one is refused at start, naming the setting. Holds the password: never log it.
   */
  database: DatabaseUrl | null;
  /**
   * DOCLOOM_S3_*: object storage for generated files (store/files/s3.ts); null = the data folder. Checked at start
   * (a malformed setting is refused with its name). Not used by the service yet (docs/team-server.md).
   */
  s3: S3Settings | null;
}

/** Settings given as code (tests, the Electron shell): any field, and any subset of the limits. */
export type ConfigOverrides = Partial<Omit<Config, 'limits'>> & { limits?: Partial<Limits> };

export const DEFAULT_PORT = 7463;

export const DEFAULT_LIMITS: Limits = Object.freeze({
  templateUploadBytes: 20 * 1024 * 1024,
  docxUncompressedBytes: 100 * 1024 * 1024,
  docxEntryRatio: 100,
  requestBodyBytes: 10 * 1024 * 1024,
  rowsPerList: 10_000,
  imagesPerDocument: 50,
  imageBytes: 10 * 1024 * 1024,
  imagePixels: 40_000_000,
  imageFetchMs: 10_000,
  dataDepth: 64,
  renderMs: 30_000,
  pagesPerDocument: 2_000,
  batchRows: 100_000,
  batchBytes: 100 * 1024 * 1024,
});

/** The project's root folder (where package.json and resources/ live), found from this file's location. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'resources'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('docloom: cannot find the project root (package.json beside resources/)');
    dir = parent;
  }
}

/**
 * Render workers when DOCLOOM_RENDER_WORKERS is not set: one per CPU the process may use, less one left to the
 * event loop (HTTP, validation, the store's writes), and at least one — 1 on 2 cores, 3 on 4, 7 on 8.
 */
export function defaultRenderWorkers(cpus = os.availableParallelism()): number {
  return Math.max(1, cpus - 1);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/**
 * The environment variable of each limit (CONTRACT.md §8: all configurable). Names follow the field names (and
 * the snake_case keys GET /api/info reports), in the same units: bytes, pixels, milliseconds, counts.
 */
export const LIMIT_VARIABLES: Readonly<Record<keyof Limits, string>> = Object.freeze({
  templateUploadBytes: 'DOCLOOM_LIMIT_TEMPLATE_UPLOAD_BYTES',
  docxUncompressedBytes: 'DOCLOOM_LIMIT_DOCX_UNCOMPRESSED_BYTES',
  docxEntryRatio: 'DOCLOOM_LIMIT_DOCX_ENTRY_RATIO',
  requestBodyBytes: 'DOCLOOM_LIMIT_REQUEST_BODY_BYTES',
  rowsPerList: 'DOCLOOM_LIMIT_ROWS_PER_LIST',
  imagesPerDocument: 'DOCLOOM_LIMIT_IMAGES_PER_DOCUMENT',
  imageBytes: 'DOCLOOM_LIMIT_IMAGE_BYTES',
  imagePixels: 'DOCLOOM_LIMIT_IMAGE_PIXELS',
  imageFetchMs: 'DOCLOOM_LIMIT_IMAGE_FETCH_MS',
  dataDepth: 'DOCLOOM_LIMIT_DATA_DEPTH',
  renderMs: 'DOCLOOM_LIMIT_RENDER_MS',
  pagesPerDocument: 'DOCLOOM_LIMIT_PAGES_PER_DOCUMENT',
  batchRows: 'DOCLOOM_LIMIT_BATCH_ROWS',
  batchBytes: 'DOCLOOM_LIMIT_BATCH_BYTES',
});

/** Every limit from its DOCLOOM_LIMIT_* variable (a whole number ≥ 1: a limit of 0 would refuse everything). */
function limitsFrom(env: NodeJS.ProcessEnv): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(LIMIT_VARIABLES) as Array<keyof Limits>) {
    limits[key] = int(env, LIMIT_VARIABLES[key], DEFAULT_LIMITS[key], 1);
  }
  return limits;
}

/**
 * Builds the configuration from DOCLOOM_* variables, with `overrides` (from code: tests, Electron) on top.
 * `overrides.limits` may name only some limits; the others keep their variable or default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const logLevel = (env.DOCLOOM_LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!['silent', 'error', 'info', 'debug'].includes(logLevel)) {
    throw new Error(`DOCLOOM_LOG_LEVEL must be silent, error, info or debug, got "${logLevel}"`);
  }
  const config: Config = {
    host: env.DOCLOOM_HOST || '127.0.0.1',
    port: int(env, 'DOCLOOM_PORT', DEFAULT_PORT),
    publicUrl: env.DOCLOOM_PUBLIC_URL ? env.DOCLOOM_PUBLIC_URL.replace(/\/+$/, '') : null,
    dataDir: path.resolve(env.DOCLOOM_DATA_DIR || './data'),
    resourcesDir: env.DOCLOOM_RESOURCES_DIR ? path.resolve(env.DOCLOOM_RESOURCES_DIR) : path.join(projectRoot(), 'resources'),
    corsOrigins: (env.DOCLOOM_CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    allowPrivateNetwork: bool(env, 'DOCLOOM_ALLOW_PRIVATE_NETWORK', false),
    downloadLinkMinutes: int(env, 'DOCLOOM_DOWNLOAD_LINK_MINUTES', 60, 1),
    sweepIntervalSeconds: int(env, 'DOCLOOM_SWEEP_INTERVAL_SECONDS', 60, 1),
    queueLeaseMs: int(env, 'DOCLOOM_QUEUE_LEASE_MS', 30_000, 300),
    renderWorkers: int(env, 'DOCLOOM_RENDER_WORKERS', defaultRenderWorkers()),
    seedSamples: bool(env, 'DOCLOOM_SEED_SAMPLES', true),
    logLevel,
    profile: bool(env, 'DOCLOOM_PROFILE', false),
    database: env.DOCLOOM_DATABASE_URL ? parseDatabaseUrl(env.DOCLOOM_DATABASE_URL) : null,
    s3: parseS3Settings(env),
    ...overrides,
    limits: { ...limitsFrom(env), ...overrides.limits },
  };
  config.limits = Object.freeze(config.limits);
  return Object.freeze(config);
}

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * Checked when the service starts listening (not by other commands). Listening beyond this machine (a container,
 * a team server behind a load balancer) needs the address clients use: links (`download_url`, pages) are built from it and the Host check accepts it. Without it every link would
 * name an address clients cannot reach, and the Host check would refuse them all.
 */
export function requirePublicUrlBeyondLoopback(config: Config): void {
  if (isLoopbackHost(config.host) || config.publicUrl) return;
  throw new Error(
    `DOCLOOM_HOST=${config.host} listens beyond this machine: set DOCLOOM_PUBLIC_URL to the address clients use (e.g. https://docs.example.com), or keep DOCLOOM_HOST=127.0.0.1`,
  );
}
