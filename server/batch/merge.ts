/**
 * All rows in one PDF, for printing (`--merge`, `GET /api/batch/{id}/download?merge=1`), with pdf-lib (already a
 * dependency): each row's pages are copied in row order. pdf-lib builds the merged file in memory, so a merge is
 * meant for print runs (hundreds or a few thousand rows), not for 100,000; docs/batch.md says so.
 */
import { PDFDocument } from '@cantoo/pdf-lib';

export class PdfMerger {
  #doc: PDFDocument | null = null;
  pages = 0;

  async add(bytes: Uint8Array): Promise<void> {
    this.#doc ??= await PDFDocument.create({ updateMetadata: false });
    const src = await PDFDocument.load(bytes, { updateMetadata: false });
    const copied = await this.#doc.copyPages(src, src.getPageIndices());
    for (const page of copied) this.#doc.addPage(page);
    this.pages += copied.length;
  }

  async save(title: string): Promise<Uint8Array> {
    const doc = this.#doc ?? (await PDFDocument.create());
    doc.setTitle(title);
    doc.setCreator('docloom');
    return doc.save({ useObjectStreams: true });
  }
}

/** Feeds a merger in row order while rows finish in any order: rows wait here until those before them are in. */
export class InOrder<T> {
  readonly #waiting = new Map<number, T | null>();
  #next = 1;
  /** `take` calls run one after the other, in row order, whatever order the puts come in. */
  #chain: Promise<void> = Promise.resolve();

  constructor(private readonly take: (item: T) => Promise<void>) {}

  /** `item` null: the row failed, it is skipped. */
  put(row: number, item: T | null): Promise<void> {
    this.#waiting.set(row, item);
    while (this.#waiting.has(this.#next)) {
      const ready = this.#waiting.get(this.#next)!;
      this.#waiting.delete(this.#next);
      this.#next++;
      if (ready !== null) this.#chain = this.#chain.then(() => this.take(ready));
    }
    return this.#chain;
  }

  /** Resolves once every item handed over so far is taken. */
  drain(): Promise<void> {
    return this.#chain;
  }
}
