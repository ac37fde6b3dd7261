/**
 * Fetched images shared across documents (a logo used by every invoice is fetched once per TTL, not once per
 * invoice). Bounded three ways: number of entries, total bytes, and age. Least recently used entries go first.
 * Keys are chosen by the resolver and include the network policy they were fetched under.
 */

export interface CachedImage {
  data: Uint8Array;
  mime: string;
}

export interface ImageCacheOptions {
  /** Most images kept (default 200). */
  maxEntries?: number;
  /** Most bytes kept, all images together (default 64 MB). An image larger than this is not kept at all. */
  maxBytes?: number;
  /** How long an image is served from the cache before it is fetched again (default 10 minutes). */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  image: CachedImage;
  expiresAt: number;
}

export class ImageCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  private readonly now: () => number;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(options: ImageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 200;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 10 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): CachedImage | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.totalBytes -= entry.image.data.byteLength;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.image;
  }

  set(key: string, image: CachedImage): void {
    this.delete(key);
    const size = image.data.byteLength;
    if (size > this.maxBytes || this.maxEntries <= 0) return;
    this.entries.set(key, { image, expiresAt: this.now() + this.ttlMs });
    this.totalBytes += size;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.totalBytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalBytes -= entry.image.data.byteLength;
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }
}
