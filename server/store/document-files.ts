/**
 * Generated files on disk: written to tmp/, fsynced, renamed into place and the bucket folder fsynced, so no
 * half-written file is ever seen and a written file survives a crash (docs/store.md, "Write order").
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Layout } from './layout.js';
import { syncDir, tempName, writeFileAtomic } from './json-file.js';

/** A file put in place whose fsyncs are still running (see DocumentFiles.place). */
export interface PlacedFile {
  sha256: string;
  /** Resolves once the file's bytes and its name are durable. */
  durable: Promise<void>;
}

export type FileVariant = 'output' | 'editable';

/** A document's file whose temp file is being opened ahead (DocumentFiles.prepare). */
export interface PreparedFile {
  /** Puts the bytes in place, as place() does. Once only. */
  place(bytes: Uint8Array): Promise<PlacedFile>;
  /** Nothing will be placed: the temp file goes (resolved once it has). A no-op after place(). Never rejects. */
  discard(): Promise<void>;
}

/** Files up to this size are written directly from the event loop (DocumentFiles.place); larger ones by the pool. */
const DIRECT_WRITE_MAX = 1 << 20;

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already failing: the first error is the one reported
  }
}

/** fdatasync in the thread pool (one round trip), then the descriptor closed; rejects when the sync failed. */
function datasyncAndClose(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.fdatasync(fd, (err) => {
      closeQuietly(fd);
      if (err) reject(err);
      else resolve();
    });
  });
}

/** Writes all of `bytes` at the start of `fd` through the thread pool. */
async function writeThroughPool(fd: number, bytes: Uint8Array): Promise<void> {
  const write = (offset: number): Promise<number> =>
    new Promise((resolve, reject) => fs.write(fd, bytes, offset, bytes.byteLength - offset, offset, (err, n) => (err ? reject(err) : resolve(n))));
  for (let offset = 0; offset < bytes.byteLength; ) offset += await write(offset);
}

export class DocumentFiles {
  readonly #layout: Layout;
  readonly #madeBuckets = new Set<string>();

  constructor(layout: Layout) {
    this.#layout = layout;
  }

  /** Resolves when the data folder holding the files is readable and writable. */
  ping(): Promise<void> {
    return fs.promises.access(this.#layout.dataDir, fs.constants.R_OK | fs.constants.W_OK);
  }

  path(id: number, ext: string, variant: FileVariant = 'output'): string {
    return this.#layout.documentFile(id, ext, variant === 'editable' ? 'editable' : '');
  }

  /**
   * Puts a file in place and starts making it durable, for the one-round completion (DocumentRepository.complete):
   * the bytes go to a temp file in tmp/ that is renamed into its bucket at once, and its fdatasync and the bucket's
   * fsync then run together — and together with the record's log append. Nobody reads the file before its record
   * says `completed`, which happens only once `durable` and the record's line are on disk; the SHA-256 lets a
   * start tell a file that did not reach the disk (docs/store.md, "Write order").
   */
  async place(id: number, ext: string, bytes: Uint8Array, variant: FileVariant = 'output'): Promise<PlacedFile> {
    await this.#bucket(id);
    const file = this.path(id, ext, variant);
    for (let attempt = 0; ; attempt++) {
      const tmp = tempName(file, this.#layout.tmp);
      let fd: number;
      try {
        // Opening, writing into the page cache and renaming take microseconds: done directly, they cost the event
        // loop less than one round trip to the thread pool each would (the PDF of a one-page invoice needs three).
        // Only the fsyncs below, which wait for the disk, go to the pool. A large file is written by the pool, so
        // the event loop never stops for long.
        fd = fs.openSync(tmp, 'wx');
      } catch (err) {
        if (!this.#retryable(err, attempt)) throw err;
        continue;
      }
      const placed = await this.#fill(file, tmp, fd, bytes, attempt);
      if (placed) return placed;
    }
  }

  /**
   * Opens the temp file of a document's file ahead, while its render runs, in the thread pool: the open (an inode
   * allocation) leaves both the path from the render to the answer and the event loop, where it took 0.03 ms at times
   * but 0.3–0.4 ms at others (docs/benchmarks.md, session 16; session 18 found the cost is CPU spent by ext4 without
   * a journal walking past recently freed inodes, so it varies with what was deleted nearby in the last minutes).
   * `place` then only writes, renames and syncs, as place() does; after an open that failed (a full disk, tmp/
   * gone) it is place() itself, whose own open then succeeds or fails — the disk may have room again once the render
   * is over. `discard` closes and removes the temp file when the render gives nothing to put there (resolving once it
   * is gone, or, for an open still under way, once that open has ended).
   */
  prepare(id: number, ext: string, variant: FileVariant = 'output'): PreparedFile {
    const file = this.path(id, ext, variant);
    const tmp = tempName(file, this.#layout.tmp);
    // Never rejects: a failed open is tried again by place() (below).
    const opened = new Promise<number | undefined>((resolve) => fs.open(tmp, 'wx', (err, fd) => resolve(err ? undefined : fd)));
    let taken = false;
    return {
      place: async (bytes) => {
        if (taken) throw new Error(`prepared file ${tmp} used twice`);
        taken = true;
        const fd = await opened;
        // The open failed as the render started: the usual way now, which opens again (and makes tmp/ again).
        if (fd === undefined) return this.place(id, ext, bytes, variant);
        try {
          await this.#bucket(id);
        } catch (err) {
          closeQuietly(fd);
          fs.rmSync(tmp, { force: true });
          throw err;
        }
        // #fill closes the descriptor in every case (after the fdatasync, or on failure).
        return (await this.#fill(file, tmp, fd, bytes, 0)) ?? this.place(id, ext, bytes, variant);
      },
      discard: async () => {
        if (taken) return;
        taken = true;
        const fd = await opened;
        if (fd === undefined) return;
        closeQuietly(fd);
        try {
          fs.rmSync(tmp, { force: true });
        } catch {
          // Never rejects (a render's finally awaits it, after its outcome was recorded): a temp file that cannot be
          // removed now (Windows: a scanner holding it) is removed by the next start's cleanup of tmp/ (docs/store.md).
        }
      },
    };
  }

  /**
   * Writes `bytes` into the open temp file `fd`, renames it over `file` and starts the fsyncs. On failure the temp
   * file is closed and removed; undefined when the failure was tmp/ missing (the caller opens a new one).
   */
  async #fill(file: string, tmp: string, fd: number, bytes: Uint8Array, attempt: number): Promise<PlacedFile | undefined> {
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    try {
      if (bytes.byteLength <= DIRECT_WRITE_MAX) fs.writeFileSync(fd, bytes);
      else await writeThroughPool(fd, bytes);
      fs.renameSync(tmp, file);
    } catch (err) {
      closeQuietly(fd);
      fs.rmSync(tmp, { force: true });
      if (this.#retryable(err, attempt)) return undefined;
      throw err;
    }
    return { sha256, durable: Promise.all([datasyncAndClose(fd), syncDir(path.dirname(file))]).then(() => undefined) };
  }

  /** tmp/ gone (removed by hand, or a starting CLI's cleanup): made again, at most twice. */
  #retryable(err: unknown, attempt: number): boolean {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 2) return false;
    fs.mkdirSync(this.#layout.tmp, { recursive: true });
    return true;
  }

  /** The bucket folder of a document, made (and made durable in its parent) when new. */
  async #bucket(id: number): Promise<void> {
    const bucket = this.#layout.documentBucket(id);
    if (this.#madeBuckets.has(bucket)) return;
    const made = await fs.promises.mkdir(bucket, { recursive: true });
    // A new bucket folder must itself be durable before a file in it can be.
    if (made !== undefined) await syncDir(path.dirname(bucket));
    this.#madeBuckets.add(bucket);
  }

  async write(id: number, ext: string, bytes: Uint8Array, variant: FileVariant = 'output'): Promise<void> {
    await this.#bucket(id);
    await writeFileAtomic(this.path(id, ext, variant), bytes, { tmpDir: this.#layout.tmp });
  }

  /** Opens a file for streaming; undefined when it does not exist. */
  async stat(id: number, ext: string, variant: FileVariant = 'output'): Promise<{ path: string; size: number } | undefined> {
    const file = this.path(id, ext, variant);
    try {
      const st = await fs.promises.stat(file);
      return { path: file, size: st.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /**
   * A file kept under a key of the store's own (`batches/<id>/rows.csv`): the same path in the data folder as an
   * object's key in a bucket. Keys are relative, `/`-separated and never climb out of the data folder.
   */
  keyPath(key: string): string {
    const parts = key.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`not a file key: ${key}`);
    return path.join(this.#layout.dataDir, ...parts);
  }

  /** Copies `source` under `key` durably (temp file in tmp/, fdatasync, rename, folder fsync). */
  async putKey(key: string, source: string): Promise<void> {
    const file = this.keyPath(key);
    await fs.promises.mkdir(this.#layout.tmp, { recursive: true });
    const made = await fs.promises.mkdir(path.dirname(file), { recursive: true });
    if (made !== undefined) await syncDir(path.dirname(made));
    const tmp = tempName(file, this.#layout.tmp);
    try {
      await fs.promises.copyFile(source, tmp);
      const handle = await fs.promises.open(tmp, 'r+');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    await syncDir(path.dirname(file));
  }

  /** Removes the file under `key` and the folder holding it when that is left empty. */
  async removeKey(key: string): Promise<void> {
    const file = this.keyPath(key);
    await fs.promises.rm(file, { force: true });
    await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
  }

  /**
   * Removes every file of a document (output and editable copy). Not fsynced: it runs after the record change that
   * makes the files orphans, and an orphan that comes back after a crash is removed at the next start.
   */
  async remove(id: number, ext: string): Promise<void> {
    await Promise.all([
      fs.promises.rm(this.path(id, ext), { force: true }),
      fs.promises.rm(this.path(id, 'docx', 'editable'), { force: true }),
    ]);
  }
}
