/**
 * Durable, atomic file writes (docs/store.md, "Write order"): the data goes to a uniquely named temp file in the
 * data dir's tmp/ (same file system), is fsynced, renamed over the destination, and the destination folder is
 * fsynced, so once a write resolves its content survives a crash, and a crash at any instant leaves the old or
 * the new content, never half of it. Temp names carry the writer's pid (`<name>.<pid>.<random>.tmp`), so the
 * service and the CLI never clobber each other's temp file and the service's start only removes the temp files of
 * writers that are gone (see reconcile.ts).
 *
 * The async adapter coalesces: while one write is on its way to disk, later writes wait and the next write
 * serialises the newest data once, so a burst of N changes costs about two JSON.stringify calls and two fsyncs,
 * not N. Folder fsyncs are coalesced the same way (syncDir).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Adapter, SyncAdapter } from 'lowdb';
import { GroupCommit } from './group-commit.js';
import { randomHex } from './random-hex.js';

/** Folders cannot be opened for fsync on Windows; there a rename is as durable as NTFS makes it. */
const CAN_SYNC_DIRS = process.platform !== 'win32';

/** The temp folder for a file directly in the data dir (tokens.json, templates.json, meta.json, settings.json…). */
export function defaultTmpDir(file: string): string {
  return path.join(path.dirname(file), 'tmp');
}

export function tempName(file: string, tmpDir: string): string {
  return path.join(tmpDir, `${path.basename(file)}.${process.pid}.${randomHex(8)}.tmp`);
}

/** The pid in a temp file's name (`<name>.<pid>.<hex>.tmp`, or the older `.<name>.<pid>.<hex>.tmp`), or null. */
export function tempWriterPid(name: string): number | null {
  const m = /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
  return m ? Number(m[1]) : null;
}

export function fsyncDirSync(dir: string): void {
  if (!CAN_SYNC_DIRS) return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function fsyncDirOnce(dir: string): Promise<void> {
  if (!CAN_SYNC_DIRS) return;
  // Opening and closing a folder take microseconds: done directly, only the fsync (which waits for the disk) costs
  // the event loop a round trip to the thread pool (the hot path syncs a bucket folder per document).
  const fd = fs.openSync(dir, 'r');
  await new Promise<void>((resolve, reject) => {
    fs.fsync(fd, (err) => {
      try {
        fs.closeSync(fd);
      } catch {
        // the fsync's outcome is what counts
      }
      if (err) reject(err);
      else resolve();
    });
  });
}

/** One group commit per folder ever synced (the data dir's few folders and its file buckets). */
const dirSyncs = new Map<string, GroupCommit>();

/**
 * fsyncs a folder so the renames and removals in it are durable. Coalesced per folder: a call made while a sync of
 * the folder is running waits for one more sync, shared by every call made meanwhile.
 */
export function syncDir(dir: string): Promise<void> {
  let sync = dirSyncs.get(dir);
  if (!sync) {
    sync = new GroupCommit(() => fsyncDirOnce(dir));
    dirSyncs.set(dir, sync);
  }
  return sync.run();
}

export interface AtomicWriteOptions {
  /** Where the temp file goes (default: tmp/ beside the file, i.e. the data dir's tmp/ for its top-level files). */
  tmpDir?: string;
  mode?: number;
}

function isEnoent(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Writes `data` to `file` durably and atomically (see the top of this file). A temp file that vanished under the
 * writer (tmp/ missing, or a starting service removed it) is written again, up to three times.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const tmpDir = options.tmpDir ?? defaultTmpDir(file);
  for (let attempt = 0; ; attempt++) {
    const tmp = tempName(file, tmpDir);
    try {
      let fd: number;
      try {
        fd = fs.openSync(tmp, 'wx', options.mode ?? 0o666);
      } catch (err) {
        if (!isEnoent(err)) throw err;
        fs.mkdirSync(tmpDir, { recursive: true });
        fd = fs.openSync(tmp, 'wx', options.mode ?? 0o666);
      }
      try {
        fs.writeFileSync(fd, data);
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
      fsyncDirSync(path.dirname(file));
      return;
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      if (!isEnoent(err) || attempt >= 2) throw err;
    }
  }
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const tmpDir = options.tmpDir ?? defaultTmpDir(file);
  for (let attempt = 0; ; attempt++) {
    const tmp = tempName(file, tmpDir);
    try {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(tmp, 'wx', options.mode ?? 0o666);
      } catch (err) {
        if (!isEnoent(err)) throw err;
        await fs.promises.mkdir(tmpDir, { recursive: true });
        handle = await fs.promises.open(tmp, 'wx', options.mode ?? 0o666);
      }
      try {
        await handle.writeFile(data);
        // The data and its size; the name is made durable by the rename and the folder's fsync.
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(tmp, file);
      await syncDir(path.dirname(file));
      return;
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      if (!isEnoent(err) || attempt >= 2) throw err;
    }
  }
}

function readJson<T>(file: string): T | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`docloom: ${file} is not valid JSON; restore it from a backup or remove it`);
  }
}

/** Small files (tokens, templates, meta, settings): synchronous, pretty-printed, read-modify-write under the caller's control. */
export class JsonFileSync<T> implements SyncAdapter<T> {
  constructor(
    readonly file: string,
    readonly tmpDir = defaultTmpDir(file),
  ) {}

  read(): T | null {
    return readJson<T>(this.file);
  }

  write(data: T): void {
    writeFileAtomicSync(this.file, JSON.stringify(data, null, 2) + '\n', { tmpDir: this.tmpDir });
  }
}

/** Large, hot files (document shards): asynchronous, compact, coalescing. */
export class CoalescingJsonFile<T> implements Adapter<T> {
  #latest: T | null = null;
  // Each write serialises the newest data at the moment it starts.
  readonly #commit = new GroupCommit(() => writeFileAtomic(this.file, JSON.stringify(this.#latest), { tmpDir: this.tmpDir }));

  constructor(
    readonly file: string,
    readonly tmpDir = defaultTmpDir(file),
  ) {}

  async read(): Promise<T | null> {
    return readJson<T>(this.file);
  }

  write(data: T): Promise<void> {
    this.#latest = data;
    return this.#commit.run();
  }

  /** Resolves once every write asked for so far is on disk. */
  flush(): Promise<void> {
    return this.#commit.drain();
  }
}
