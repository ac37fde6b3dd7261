/**
 * Generated files on disk: written to tmp/, fsynced, renamed into place and the bucket folder fsynced, so no
 * half-written file is ever seen and a written file survives a crash (docs/store.md, "Write order").
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Layout } from './layout.js';
import { syncDir, writeFileAtomic } from './json-file.js';

export type FileVariant = 'output' | 'editable';

export class DocumentFiles {
  readonly #layout: Layout;
  readonly #madeBuckets = new Set<string>();

  constructor(layout: Layout) {
    this.#layout = layout;
  }

  path(id: number, ext: string, variant: FileVariant = 'output'): string {
    return this.#layout.documentFile(id, ext, variant === 'editable' ? 'editable' : '');
  }

  async write(id: number, ext: string, bytes: Uint8Array, variant: FileVariant = 'output'): Promise<void> {
    const bucket = this.#layout.documentBucket(id);
    if (!this.#madeBuckets.has(bucket)) {
      const made = await fs.promises.mkdir(bucket, { recursive: true });
      // A new bucket folder must itself be durable before a file in it can be.
      if (made !== undefined) await syncDir(path.dirname(bucket));
      this.#madeBuckets.add(bucket);
    }
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
