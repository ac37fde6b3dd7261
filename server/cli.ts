/**
 * The `docloom` command (bin/docloom.js runs the compiled copy):
 *   serve | token create/list/revoke | render | batch | import | --help
 * Configuration comes from DOCLOOM_* variables through server/config.ts only (docs/configuration.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from './config.js';
import { startServer } from './index.js';
import { openTemplateStore, openTokenStore } from './store/index.js';
import { ServiceError } from './services/errors.js';
import { TokenService, isWindowSignIn } from './services/tokens.js';
import { TemplateService, describeTemplateError, describeWarningLocation } from './services/templates.js';
import { loadEngine, useFontsDir } from './services/engine.js';
import { imageResolvers } from './services/images.js';
import { optionalDelimiters } from './services/validate.js';
import { Violations } from './services/errors.js';
import { BATCH_HELP, batchCommand } from './batch/cli-batch.js';
import { openDatabase } from './store/open-database.js';
import { localTemplates } from './store/local.js';
import { parseDatabaseUrl, type DatabaseUrl } from './store/pg/url.js';
import type { MigrateReport } from './store/migrate-to/index.js';
import { progressOn } from './store/migrate-to/progress.js';

const HELP = `docloom — offline document generator with a local AutomatedDocs-compatible API

Usage:
  docloom serve                         start the service (API, GUI, sign-in link); Ctrl+C stops it
  docloom token create --name NAME [--read-only]
                                        make an API token (printed alone on the last line, shown once)
  docloom token list                    list tokens (names and ids; tokens themselves are never stored)
  docloom token revoke ID               revoke a token at once (also while the service runs)
  docloom render TEMPLATE DATA.json -o OUT.pdf [--delimiters "{ }"] [--test] [--password P] [--locale L]
                                        render a .docx/.json template with a data file, no service needed
${BATCH_HELP}
  docloom import FILE [--name NAME] [--delimiters "<< >>"]
                                        add a template (.docx or .json) to the data dir; what the
                                        import left out (an EMF picture, a chart…) is printed on stderr,
                                        one "FILE: warning CODE (PART): MESSAGE" line each
  docloom db migrate                    bring the DOCLOOM_DATABASE_URL database's schema up to date
                                        (a team server's start does the same; docs/team-server.md)
  docloom migrate --to postgres://USER@HOST:5432/DB [--data DIR] [--dry-run]
                  [--s3-bucket B [--s3-endpoint URL] [--s3-region R] [--s3-force-path-style] | --files-dir DIR]
                                        copy a desktop data folder (default DOCLOOM_DATA_DIR) into a team
                                        server: ids, token hashes, templates, documents and their files.
                                        Resumable; --dry-run only counts. S3 credentials and the rest of
                                        the S3 settings as \`serve\` reads them (DOCLOOM_S3_*); without
                                        --to, DOCLOOM_DATABASE_URL (keeps the password out of the
                                        process list). docs/team-server.md, "Moving up"
  docloom --help                        this text

Settings are environment variables (see docs/configuration.md), for example:
  DOCLOOM_PORT=7463  DOCLOOM_HOST=127.0.0.1  DOCLOOM_DATA_DIR=./data  DOCLOOM_PUBLIC_URL=
`;

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

/** --name value, --name=value, boolean --flags; `-o` is short for --output. */
function parseArgs(args: string[], valued: Set<string>): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    let arg = args[i];
    if (arg === '-o') arg = '--output';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq > 0) flags.set(name, arg.slice(eq + 1));
    else if (valued.has(name)) {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else flags.set(name, true);
  }
  return { positional, flags };
}

function flagString(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function delimitersFlag(p: Parsed): [string, string] | undefined {
  const raw = flagString(p, 'delimiters');
  if (raw === undefined) return undefined;
  const v = new Violations();
  const d = optionalDelimiters(v, raw);
  if (!d) throw new UsageError(v.errors.delimiters?.[0] ?? 'bad --delimiters');
  return d;
}

async function serve(config: Config): Promise<void> {
  const server = await startServer({ config, log: (line) => console.log(line) });
  const code = server.createSignInCode();
  // The handlers are in place before the banner says Ctrl+C works (a signal sent on reading it must stop us cleanly).
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: stopping…`);
      server.close().then(resolve, (err: unknown) => {
        console.error(err);
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  console.log(`docloom is running.`);
  console.log(`  API:    ${server.url}/api`);
  console.log(`  GUI:    ${server.url}/#/signin?code=${code}   (one-time link, valid 10 minutes)`);
  console.log(`  Token:  npx docloom token create --name my-tool   (then send "Authorization: Bearer <token>")`);
  console.log(`  Data:   ${config.dataDir}`);
  console.log('Press Ctrl+C to stop.');
  await stopped;
  console.log('Stopped.');
}

function token(config: Config, args: string[]): void {
  const p = parseArgs(args, new Set(['name']));
  const [sub, ...rest] = p.positional;
  const service = new TokenService(openTokenStore(config.dataDir));
  if (sub === 'create') {
    const name = flagString(p, 'name');
    if (!name) throw new UsageError('token create needs --name NAME');
    const readOnly = p.flags.get('read-only') === true;
    const { record, token } = service.create(name, readOnly);
    console.log(`Token "${record.name}" (id ${record.id}, ${readOnly ? 'read-only' : 'read-write'}) created. It is shown only once:`);
    console.log(token);
    return;
  }
  if (sub === 'list') {
    const tokens = service.list();
    if (tokens.length === 0) {
      console.log('No tokens. Make one with: docloom token create --name my-tool');
      return;
    }
    console.log('ID\tACCESS\t\tCREATED\t\t\t\tNAME');
    // A browser window's sign-in is not an API token: marked so (docs/api.md, "Browser sign-in").
    for (const t of tokens) console.log(`${t.id}\t${t.read_only ? 'read-only' : 'read-write'}\t${t.created_at}\t${t.name}${isWindowSignIn(t) ? ' (window sign-in, ends after 12 h unused)' : ''}`);
    return;
  }
  if (sub === 'revoke') {
    const id = rest[0];
    if (!id || !/^\d+$/.test(id)) throw new UsageError('token revoke needs the token ID (see docloom token list)');
    service.revoke(Number(id));
    console.log(`Token ${id} revoked.`);
    return;
  }
  throw new UsageError('token needs create, list or revoke');
}

async function render(config: Config, args: string[]): Promise<void> {
  const p = parseArgs(args, new Set(['output', 'delimiters', 'password', 'locale']));
  const [templateFile, dataFile] = p.positional;
  const out = flagString(p, 'output');
  if (!templateFile || !dataFile || !out) throw new UsageError('render needs TEMPLATE DATA.json -o OUT.pdf');
  const ext = path.extname(templateFile).toLowerCase();
  if (ext !== '.docx' && ext !== '.json') throw new UsageError('TEMPLATE must be a .docx or .json file');
  let data: unknown;
  try {
    data = dataFile === '-' ? JSON.parse(fs.readFileSync(0, 'utf8')) : JSON.parse(fs.readFileSync(dataFile, 'utf8'));
  } catch (err) {
    throw new UsageError(`${dataFile}: not a readable JSON file (${(err as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UsageError(`${dataFile}: the data must be a JSON object`);
  useFontsDir(path.join(config.resourcesDir, 'fonts'));
  const engine = await loadEngine();
  engine.setMaxImagePixels(config.limits.imagePixels);
  const compiled = engine.compileTemplate({
    kind: ext === '.docx' ? 'docx' : 'json',
    bytes: fs.readFileSync(templateFile),
    delimiters: delimitersFlag(p),
    docxLimits: { maxUncompressedBytes: config.limits.docxUncompressedBytes, maxEntryRatio: config.limits.docxEntryRatio },
  });
  if (!compiled.ok) {
    for (const e of compiled.errors) console.error(`${templateFile}: ${describeTemplateError(e)}`);
    process.exitCode = 1;
    return;
  }
  const result = await engine.renderPdf(compiled.template, data as Record<string, unknown>, {
    test: p.flags.get('test') === true,
    password: flagString(p, 'password') ?? null,
    locale: flagString(p, 'locale'),
    metadata: { title: path.basename(out).replace(/\.[^.]+$/, ''), creator: 'docloom' },
    limits: { rowsPerList: config.limits.rowsPerList, imagesPerDocument: config.limits.imagesPerDocument, imageBytes: config.limits.imageBytes, imagePixels: config.limits.imagePixels },
    resolveImage: imageResolvers({ allowPrivateNetwork: config.allowPrivateNetwork, limits: config.limits })(),
    renderLimits: { pages: config.limits.pagesPerDocument, ms: config.limits.renderMs },
  });
  fs.writeFileSync(out, result.bytes);
  console.log(`Wrote ${out} (${result.pages} page${result.pages === 1 ? '' : 's'}, ${result.bytes.byteLength} bytes).`);
}

async function importTemplate(config: Config, args: string[]): Promise<void> {
  const p = parseArgs(args, new Set(['name', 'delimiters', 'description']));
  const [file] = p.positional;
  if (!file) throw new UsageError('import needs FILE (.docx or .json)');
  delimitersFlag(p);
  const service = new TemplateService(localTemplates(openTemplateStore(config.dataDir)), config.limits);
  const record = await service.create(
    { name: flagString(p, 'name'), delimiters: flagString(p, 'delimiters'), description: flagString(p, 'description') },
    { filename: path.basename(file), bytes: fs.readFileSync(file) },
  );
  const fields = record.fields.map((f) => f.name).join(', ') || '(none)';
  console.log(`Imported "${record.name}" (uuid ${record.uuid}, id ${record.id}); fields: ${fields}.`);
  // What the import left out or changed: one line each, on stderr (the template is imported all the same).
  for (const w of record.import_warnings ?? []) {
    // The delimiter suggestion says how to act on it: the same command with --delimiters.
    const hint = w.suggested_delimiters ? ` Import it with --delimiters "${w.suggested_delimiters}".` : '';
    console.error(`${file}: warning ${w.code} (${describeWarningLocation(w)}): ${w.message}${hint}`);
  }
}

/** `docloom db migrate`: the start steps of a team server alone (connect, migrate under the lock, report). */
async function db(config: Config, args: string[]): Promise<void> {
  if (args[0] !== 'migrate' || args.length > 1) throw new UsageError('usage: docloom db migrate');
  if (!config.database) throw new UsageError('docloom db migrate needs DOCLOOM_DATABASE_URL (docs/configuration.md)');
  const repos = await openDatabase(config, (line) => console.log(line));
  try {
    console.log(`PostgreSQL ${config.database.describe}: schema version ${repos.meta.schemaVersion}, up to date.`);
  } finally {
    await repos.close();
  }
}

const MIGRATE_FLAGS = new Set(['to', 'data', 's3-bucket', 's3-endpoint', 's3-region', 'files-dir']);

function printReport(r: MigrateReport): void {
  const line = (what: string, c: { source: number; present: number; written: number }) =>
    `  ${what.padEnd(10)} ${c.source} in the data folder, ${c.present} already there, ${c.written} ${r.dryRun ? 'to copy' : 'copied'}`;
  console.log(r.dryRun ? 'Dry run (nothing written):' : 'Migrated:');
  console.log(line('tokens', r.tokens));
  console.log(line('templates', r.templates) + ` (${r.templateFiles} template file${r.templateFiles === 1 ? '' : 's'})`);
  console.log(line('documents', r.documents));
  console.log(line('batches', r.batches));
  console.log(`  files      ${r.files} ${r.dryRun ? 'to put' : 'put'}`);
  if (!r.dryRun) {
    console.log(
      r.secretCopied
        ? '  The data folder\'s signing secret was kept: download links it signed stay valid.'
        : '  The database already served before: its own signing secret stays (links the desktop signed no longer work).',
    );
  }
}

/**
 * `docloom migrate` (docs/team-server.md, "Moving up"). S3 settings as `serve` reads them (DOCLOOM_S3_*), which
 * the --s3-* flags set; credentials only from the environment (argv is visible to every user of the machine).
 */
async function migrateCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const p = parseArgs(args, MIGRATE_FLAGS);
  if (p.positional.length > 0) throw new UsageError(`migrate takes no argument "${p.positional[0]}" (see docloom --help)`);
  for (const name of p.flags.keys()) {
    if (!MIGRATE_FLAGS.has(name) && name !== 'dry-run' && name !== 's3-force-path-style') throw new UsageError(`migrate has no option --${name}`);
  }
  const withFlags: NodeJS.ProcessEnv = { ...env };
  const fromFlag: Array<[string, string]> = [['s3-bucket', 'DOCLOOM_S3_BUCKET'], ['s3-endpoint', 'DOCLOOM_S3_ENDPOINT'], ['s3-region', 'DOCLOOM_S3_REGION']];
  for (const [flag, variable] of fromFlag) {
    const value = flagString(p, flag);
    if (value !== undefined) withFlags[variable] = value;
  }
  if (p.flags.get('s3-force-path-style') === true) withFlags.DOCLOOM_S3_FORCE_PATH_STYLE = 'true';
  const to = flagString(p, 'to');
  // The target is --to (or DOCLOOM_DATABASE_URL); the variable is not checked as a serve setting here.
  delete withFlags.DOCLOOM_DATABASE_URL;
  const config = loadConfig(withFlags);
  const raw = to ?? env.DOCLOOM_DATABASE_URL;
  if (!raw) throw new UsageError('migrate needs --to postgres://user@host:5432/database (or DOCLOOM_DATABASE_URL)');
  let database: DatabaseUrl;
  try {
    database = parseDatabaseUrl(raw);
  } catch (err) {
    // The parser names the variable; the URL came from --to. Its message never quotes the URL.
    throw new UsageError(to === undefined ? (err as Error).message : (err as Error).message.replace('DOCLOOM_DATABASE_URL', '--to'));
  }
  const filesDir = flagString(p, 'files-dir');
  if (config.s3 && filesDir) throw new UsageError('give either an S3 bucket (--s3-bucket or DOCLOOM_S3_BUCKET) or --files-dir, not both');
  if (!config.s3 && !filesDir) {
    throw new UsageError('migrate needs where documents\' files go: --s3-bucket BUCKET (with DOCLOOM_S3_* as serve reads them), or --files-dir DIR (the DOCLOOM_DATA_DIR of a team instance without object storage)');
  }
  const dataDir = path.resolve(flagString(p, 'data') ?? config.dataDir);
  // Loaded here only: the other commands (a desktop `serve`) never load the PostgreSQL client.
  const { MigrationRefused, migrateDataFolder } = await import('./store/migrate-to/index.js');
  try {
    const report = await migrateDataFolder({
      dataDir,
      database,
      files: config.s3 ? { s3: config.s3 } : { dir: path.resolve(filesDir!) },
      dryRun: p.flags.get('dry-run') === true,
      progress: progressOn(process.stderr),
    });
    printReport(report);
    return 0;
  } catch (err) {
    if (err instanceof MigrationRefused) {
      console.error(err.message);
      return 1;
    }
    // The connection failure's line names the variable; here the URL came from --to.
    if (to !== undefined && err instanceof Error) err.message = err.message.replace('(DOCLOOM_DATABASE_URL)', '(--to)');
    throw err;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return command ? 0 : 2;
  }
  let config!: Config;
  try {
    // migrate reads its settings itself (the --s3-* flags over DOCLOOM_S3_*, --to over DOCLOOM_DATABASE_URL).
    if (command !== 'migrate') config = loadConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  try {
    if (rest.includes('--help')) {
      console.log(HELP);
      return 0;
    }
    switch (command) {
      case 'serve':
        await serve(config);
        break;
      case 'token':
        token(config, rest);
        break;
      case 'render':
        await render(config, rest);
        break;
      case 'import':
        await importTemplate(config, rest);
        break;
      case 'batch':
        return await batchCommand(config, rest);
      case 'db':
        await db(config, rest);
        break;
      case 'migrate':
        return await migrateCommand(rest, process.env);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`docloom: ${err.message}\nRun "docloom --help" for usage.`);
      return 2;
    }
    if (err instanceof ServiceError) {
      const details = err.errors ? Object.values(err.errors).flat() : [err.message];
      for (const line of details) console.error(`docloom: ${line}`);
      return 1;
    }
    const e = err as Error & { code?: string };
    const message = e.code === 'ENOENT' ? e.message.replace(/^ENOENT: /, '') : (e.message ?? String(err));
    // Some messages (the port in use, say) already start with "docloom: ".
    console.error(`docloom: ${message.replace(/^docloom: /, '')}`);
    return 1;
  }
}

// Run when executed (node server/cli.ts, or bin/docloom.js importing dist/server/cli.js), not when imported by tests.
const entry = process.argv[1] ? path.resolve(process.argv[1]) : '';
const self = fileURLToPath(import.meta.url);
const viaBin = entry.endsWith(`${path.sep}docloom.js`) || entry.endsWith(`${path.sep}docloom`);
if (entry === self || viaBin) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
