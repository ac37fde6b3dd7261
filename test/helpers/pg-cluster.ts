/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp folder, a server on a free loopback port (and a
 * socket in that folder), stopped and removed after. No system service is used or needed.
 *
 * PostgreSQL refuses to run as root (initdb: "cannot be run as root"). Under root (CI containers) the cluster is
 * made and run as the `postgres` system user, which Debian's postgresql package creates, through `runuser -u
 * postgres`; the temp folder is handed to that user. As any other user it runs as that user.
 *
 * Binaries: DOCLOOM_PG_BIN, else the newest /usr/lib/postgresql/<n>/bin (Debian's layout). Where none is found, or
 * root has no `postgres` user, startPgCluster() answers why, and the tests that need it skip saying so.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export const PG_PASSWORD = 'pw-Secret-9f3e';
const SUPERUSER = 'docloom';

export interface PgCluster {
  port: number;
  /** The URL of `database` (password included, as DOCLOOM_DATABASE_URL would carry it). */
  url(database: string): string;
  /** Creates an empty database; answers its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server at once (`pg_ctl stop -m immediate`, as a crash or a lost machine would) and keeps its files. */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port and files (it recovers from its WAL). */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function findBinDir(): string | null {
  const env = process.env.DOCLOOM_PG_BIN;
  if (env) return fs.existsSync(path.join(env, 'initdb')) ? env : null;
  const root = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  } catch {
    return null;
  }
  for (const v of versions) if (fs.existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  return null;
}

/** A loopback port nothing listens on (now). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The uid/gid to run as under root, or null when not root. */
async function runAs(): Promise<{ uid: number; gid: number } | null | string> {
  if (process.getuid?.() !== 0) return null;
  try {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    return { uid, gid };
  } catch {
    return 'running as root and there is no `postgres` user to run PostgreSQL as (install Debian\'s postgresql package: scripts/install.sh)';
  }
}

let counter = 0;

/** Starts a cluster, or answers why it cannot (the caller skips with that reason). */
export async function startPgCluster(): Promise<PgCluster | string> {
  const bin = findBinDir();
  if (!bin) return 'PostgreSQL server binaries not found (/usr/lib/postgresql/<n>/bin or DOCLOOM_PG_BIN); scripts/install.sh installs them';
  const user = await runAs();
  if (typeof user === 'string') return user;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-pg-'));
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, PG_PASSWORD + '\n');
  if (user) for (const owned of [dir, pwfile]) fs.chownSync(owned, user.uid, user.gid);
  const exec = (tool: string, args: string[]) =>
    user ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = () => exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  try {
    // Password (SCRAM) over TCP, as a real server would ask; trust on the folder's own socket only.
    await exec('initdb', ['-D', data, '-U', SUPERUSER, `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--no-sync']);
    await start();
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = (database: string) => `postgres://${SUPERUSER}:${PG_PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name = `t${process.pid}_${++counter}`) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async halt() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    async resume() {
      await start();
    },
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
