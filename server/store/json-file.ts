/**
 * lowdb adapters that write atomically (temp file in the same folder, then rename) with a unique temp name per
 * process and write, so the service and the CLI can both write the same small file without clobbering each
 * other's temp file (lowdb's own adapter uses one fixed `.name.tmp`).
 *
 * The async adapter coalesces: while one write is on its way to disk, later writes wait and the next write
 * serialises the newest data once, so a burst of N changes costs about two JSON.stringify calls, not N.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Adapter, SyncAdapter } from 'lowdb';

function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
}

/** Writes `text` to `file` atomically (readers see the old or the new content, never a half-written file). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = tempName(file);
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempName(file);
  try {
    await fs.promises.writeFile(tmp, data);
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
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

/** Small files (tokens, templates, meta): synchronous, pretty-printed, read-modify-write under the caller's control. */
export class JsonFileSync<T> implements SyncAdapter<T> {
  constructor(readonly file: string) {}

  read(): T | null {
    return readJson<T>(this.file);
  }

  write(data: T): void {
    writeFileAtomicSync(this.file, JSON.stringify(data, null, 2) + '\n');
  }
}

/** Large, hot files (document shards): asynchronous, compact, coalescing. */
export class CoalescingJsonFile<T> implements Adapter<T> {
  #latest: T | null = null;
  #writing: Promise<void> | null = null;
  #queued: Promise<void> | null = null;

  constructor(readonly file: string) {}

  async read(): Promise<T | null> {
    return readJson<T>(this.file);
  }

  write(data: T): Promise<void> {
    this.#latest = data;
    if (this.#queued) return this.#queued;
    const previous = this.#writing ?? Promise.resolve();
    // Runs after the write in progress (if any); takes the newest data at that moment.
    const next = previous.catch(() => undefined).then(async () => {
      this.#queued = null;
      const text = JSON.stringify(this.#latest);
      const current = writeFileAtomic(this.file, text);
      this.#writing = current;
      try {
        await current;
      } finally {
        if (this.#writing === current) this.#writing = null;
      }
    });
    this.#queued = next;
    return next;
  }

  /** Resolves once every write asked for so far is on disk. */
  async flush(): Promise<void> {
    while (this.#queued || this.#writing) {
      await (this.#queued ?? this.#writing)?.catch(() => undefined);
    }
  }
}
