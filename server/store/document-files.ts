/** Generated files on disk: written to tmp/ first and renamed into place, so no half-written file is ever seen. */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Layout } from './layout.js';

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
      await fs.promises.mkdir(bucket, { recursive: true });
      this.#madeBuckets.add(bucket);
    }
    const tmp = path.join(this.#layout.tmp, `${id}.${crypto.randomBytes(4).toString('hex')}.tmp`);
    try {
      await fs.promises.writeFile(tmp, bytes);
      await fs.promises.rename(tmp, this.path(id, ext, variant));
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
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

  /** Removes every file of a document (output and editable copy). */
  async remove(id: number, ext: string): Promise<void> {
    await Promise.all([
      fs.promises.rm(this.path(id, ext), { force: true }),
      fs.promises.rm(this.path(id, 'docx', 'editable'), { force: true }),
    ]);
  }
}
