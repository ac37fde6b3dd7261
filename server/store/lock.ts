/**
 * Cross-process locks in the data dir (docs/store.md, "Files shared with the CLI" and "Startup recovery").
 *
 * - service.lock: one service per data dir, held for the service's lifetime.
 * - write.lock: held for the few milliseconds of every change to tokens.json, templates.json, meta.json and the
 *   template folders, by the service and by the CLI alike, so two processes never lose each other's change.
 *
 * A lock file is made whole and atomically: its content is written to a temp file that is then hard-linked to the
 * lock's name (link() fails with EEXIST when the lock is held), so nobody ever reads a half-written lock. It holds
 * the holder's pid, its process start time (/proc/<pid>/stat field 22, where /proc exists) and a random nonce.
 *
 * A lock is stale when its pid is gone, or when that pid now belongs to another process (pid reuse: the start time
 * differs or, for a lock without one, the command line is not docloom's). Without /proc only pid liveness counts.
 * A stale lock is removed under a second exclusive file (`<lock>.takeover`) after checking, under it, that the
 * lock still holds the very content judged stale; then the remover competes for the lock like everyone else. So
 * when several processes find the same stale lock, exactly one of them gets it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Layout } from './layout.js';
import { tempName } from './json-file.js';

interface Holder {
  pid: number;
  /** Process start time in clock ticks since boot (/proc/<pid>/stat field 22); null where there is no /proc. */
  start?: string | null;
  nonce?: string;
  since?: string;
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Fields 3 (state) and 22 (start time) of /proc/<pid>/stat; null without /proc (or when the pid is gone). */
function procStat(pid: number): { state: string; start: string } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // After the parenthesised command name (which may hold spaces): fields[0] is field 3, so field 22 is fields[19].
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ? { state: fields[0], start: fields[19] } : null;
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null without /proc. */
export function processStartTime(pid: number): string | null {
  return procStat(pid)?.start ?? null;
}

function commandLine(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

const OWN_START = processStartTime(process.pid);

/** Why a holder no longer holds the lock, or null when it is a live docloom process. */
function staleReason(holder: Holder | null): string | null {
  if (!holder || !Number.isInteger(holder.pid) || holder.pid <= 0) return 'unreadable lock';
  if (!alive(holder.pid)) return 'not running';
  const stat = procStat(holder.pid);
  if (stat === null) return null; // no /proc (or gone this instant): pid liveness is all we can know
  if (stat.state === 'Z' || stat.state === 'X') return 'not running'; // exited, not yet reaped by its parent
  if (holder.start) return holder.start === stat.start ? null : 'its pid now belongs to another process';
  // A lock written without a start time naming this very process: a restart that got the same pid (pid 1 in a
  // container), not another holder.
  if (holder.pid === process.pid) return 'its pid is now this process';
  // A lock written without a start time: a docloom process has docloom in its command line.
  const cmd = commandLine(holder.pid);
  return cmd === null || /docloom/i.test(cmd) ? null : 'its pid now belongs to another process';
}

function readRaw(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function parse(raw: string | null): Holder | null {
  if (raw === null) return null;
  try {
    const h = JSON.parse(raw) as Holder;
    return typeof h === 'object' && h !== null ? h : null;
  } catch {
    return null;
  }
}

/** Creates `file` holding `content` only if it does not exist; false when it does. */
function createExclusive(file: string, content: string): boolean {
  // Named like the atomic writes' temp files, beside the lock (a hard link needs the same folder); it exists for
  // microseconds.
  const tmp = tempName(file, path.dirname(file));
  fs.writeFileSync(tmp, content);
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    // A file system without hard links: O_EXCL (a reader may then see the file empty for an instant).
    try {
      fs.writeFileSync(file, content, { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function ownRecord(nonce: string): string {
  const holder: Holder = { pid: process.pid, start: OWN_START, nonce, since: new Date().toISOString() };
  return JSON.stringify(holder) + '\n';
}

/**
 * Removes `file` if it still holds `staleRaw`, under `<file>.takeover` so two processes never both remove a lock
 * (one of them might be removing the other's fresh lock). True when this call removed it.
 */
function removeStale(file: string, staleRaw: string | null): boolean {
  const guard = `${file}.takeover`;
  if (!createExclusive(guard, ownRecord(crypto.randomUUID()))) {
    // Another process is taking over (for microseconds). A guard left by a process that died is cleared.
    const raw = readRaw(guard);
    if (raw === null) return false;
    const holder = parse(raw);
    const stale = holder === null ? !youngerThan(guard, 1000) : staleReason(holder) !== null;
    if (stale && readRaw(guard) === raw) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    if (readRaw(file) !== staleRaw) return false;
    fs.rmSync(file, { force: true });
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

function youngerThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

interface Attempt {
  /** The lock is ours: returns its nonce. */
  acquired?: string;
  /** A live process holds it. */
  holder?: Holder;
}

function tryAcquire(file: string, log: (line: string) => void): Attempt {
  const nonce = crypto.randomUUID();
  if (createExclusive(file, ownRecord(nonce))) return { acquired: nonce };
  const raw = readRaw(file);
  if (raw === null) return {}; // released meanwhile: try again
  const holder = parse(raw);
  // An unreadable lock may be one being written by O_EXCL (file systems without hard links): give it a second.
  if (holder === null && youngerThan(file, 1000)) return {};
  const reason = staleReason(holder);
  if (reason === null) return { holder: holder! };
  if (removeStale(file, raw)) {
    const who = holder ? `pid ${holder.pid}` : 'no readable pid';
    log(`store: ${path.basename(file)} of ${who} taken over (${reason})`);
  }
  return {};
}

function release(file: string, nonce: string): void {
  try {
    if (parse(readRaw(file))?.nonce === nonce) fs.rmSync(file, { force: true });
  } catch {
    // Already gone.
  }
}

/** Takes service.lock for this process; throws the "another docloom service" message when a live one holds it. */
export function acquireLock(layout: Layout, log: (line: string) => void = () => undefined): () => void {
  for (let attempt = 0; attempt < 100; attempt++) {
    const result = tryAcquire(layout.lock, log);
    if (result.acquired) {
      const nonce = result.acquired;
      return () => release(layout.lock, nonce);
    }
    if (result.holder) {
      throw new Error(`docloom: another docloom service (pid ${result.holder.pid}) is using the data dir ${layout.dataDir}`);
    }
    sleepSync(1 + Math.random() * 4);
  }
  throw new Error(`docloom: cannot lock the data dir ${layout.dataDir}`);
}

/** How long a change waits for write.lock before giving up (a holder keeps it for milliseconds). */
export const WRITE_LOCK_WAIT_MS = 15_000;

/**
 * write.lock of one data dir. run() is re-entrant within this process (a change may call another change) and
 * synchronous: callers are synchronous read-modify-write steps of a few milliseconds.
 */
export class WriteLock {
  #depth = 0;
  #nonce: string | null = null;
  /** Where takeovers of a stale write.lock are reported (the service sets its logger; the CLI stays quiet). */
  log: (line: string) => void = () => undefined;

  constructor(readonly file: string) {}

  run<R>(change: () => R): R {
    if (this.#depth === 0) this.#acquire();
    this.#depth++;
    try {
      return change();
    } finally {
      this.#depth--;
      if (this.#depth === 0 && this.#nonce) {
        release(this.file, this.#nonce);
        this.#nonce = null;
      }
    }
  }

  #acquire(): void {
    const deadline = Date.now() + WRITE_LOCK_WAIT_MS;
    let wait = 1;
    for (;;) {
      const result = tryAcquire(this.file, this.log);
      if (result.acquired) {
        this.#nonce = result.acquired;
        return;
      }
      if (result.holder?.pid === process.pid && result.holder.start === OWN_START) {
        // Our own lock, yet not held by this object (a release that failed): nobody else can be using it.
        if (removeStale(this.file, readRaw(this.file))) continue;
      }
      if (Date.now() > deadline) {
        const who = result.holder ? ` (pid ${result.holder.pid} holds ${path.basename(this.file)})` : '';
        throw new Error(`docloom: the data dir ${path.dirname(this.file)} stayed busy for ${WRITE_LOCK_WAIT_MS / 1000} s${who}`);
      }
      sleepSync(wait * (0.5 + Math.random()));
      wait = Math.min(wait * 2, 25);
    }
  }
}

const writeLocks = new Map<string, WriteLock>();

/** The one WriteLock of this process for the data dir holding `dataDir`. */
export function writeLockFor(dataDir: string): WriteLock {
  const file = new Layout(path.resolve(dataDir)).writeLock;
  let lock = writeLocks.get(file);
  if (!lock) {
    lock = new WriteLock(file);
    writeLocks.set(file, lock);
  }
  return lock;
}
