/**
 * A zip written as a stream with fflate (already a dependency): each file is added as it is ready and goes out
 * at once, so neither the CLI's `--zip` nor `GET /api/batch/{id}/download` ever holds the archive in memory.
 * PDFs are compressed already: files are stored, not deflated (deflating them again costs CPU for ~1 %). The
 * writer waits for the destination to drain (backpressure) before it takes the next file.
 */
import type { Writable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';

export class ZipWriter {
  readonly #zip: Zip;
  #error: Error | null = null;
  readonly #ended: Promise<void>;

  constructor(private readonly out: Writable) {
    let done!: () => void;
    let fail!: (err: Error) => void;
    this.#ended = new Promise<void>((resolve, reject) => {
      done = resolve;
      fail = reject;
    });
    // A rejection nobody waits for yet must not crash the process; end() reports it.
    this.#ended.catch(() => undefined);
    this.#zip = new Zip((err, chunk, final) => {
      if (err) {
        this.#error = err;
        fail(err);
        return;
      }
      out.write(chunk);
      if (final) out.end(() => done());
    });
    out.on('error', (err) => {
      this.#error = err;
      fail(err);
    });
  }

  /** Adds one file; resolves once the destination can take more. */
  async add(name: string, bytes: Uint8Array, mtime = new Date()): Promise<void> {
    if (this.#error) throw this.#error;
    const file = new ZipPassThrough(name);
    file.mtime = mtime;
    this.#zip.add(file);
    file.push(bytes, true);
    if (this.out.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const go = () => {
          this.out.off('drain', go);
          this.out.off('close', go);
          resolve();
        };
        this.out.on('drain', go);
        this.out.on('close', go);
      });
    }
    if (this.#error) throw this.#error;
  }

  /** Writes the central directory and ends the destination. */
  async end(): Promise<void> {
    this.#zip.end();
    await this.#ended;
  }
}
