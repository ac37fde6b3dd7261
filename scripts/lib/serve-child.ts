/**
 * A real `docloom serve` (bin/docloom.js over the built dist/) as a child process on a data dir, for the crash
 * harness and the tests that kill or stop it. Nothing here builds: run `npm run build:server` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin', 'docloom.js');
export const BUILT = fs.existsSync(path.join(ROOT, 'dist', 'server', 'cli.js'));

function childEnv(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_OPTIONS: '',
    DOCLOOM_DATA_DIR: dataDir,
    DOCLOOM_PORT: '0',
    DOCLOOM_HOST: '127.0.0.1',
    DOCLOOM_SEED_SAMPLES: 'false',
    DOCLOOM_LOG_LEVEL: 'info',
    DOCLOOM_RENDER_WORKERS: '1',
    ...extra,
  };
}

/** Runs `docloom token create` (the CLI, as a person would) and returns the token it printed. */
export async function cliToken(dataDir: string, name: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'token', 'create', '--name', name], { env: childEnv(dataDir, {}), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const token = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !/^\d+\|\w+$/.test(token)) throw new Error(`docloom token create failed (${code}): ${out}${err}`);
  return token;
}

export interface ServeChild {
  child: ChildProcess;
  url: string;
  /** Every line the service printed (stdout and stderr), in order. */
  lines: string[];
  /** Milliseconds from spawn to the service answering. */
  startMs: number;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `docloom serve` on `dataDir` and resolves once it prints its URL (rejects if it exits or takes > 30 s). */
export function startServe(dataDir: string, extraEnv: Record<string, string> = {}): Promise<ServeChild> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'serve'], { env: childEnv(dataDir, extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      reject(new Error(`docloom serve did not start within 30 s:\n${lines.join('\n')}`));
    }, 30_000);
    const onLine = (line: string) => {
      lines.push(line);
      const m = /API:\s+(http:\/\/\S+)\/api\b/.exec(line);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        resolve({ child, url: m[1], lines, startMs: Date.now() - started, exited });
      }
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      let buf = '';
      stream.on('data', (c: Buffer) => {
        buf += c.toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          onLine(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      });
    }
    void exited.then(({ code, signal }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`docloom serve exited (${code ?? signal}) before it answered:\n${lines.join('\n')}`));
    });
  });
}
