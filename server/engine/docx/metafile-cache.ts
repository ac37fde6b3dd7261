/**
 * EMF and WMF pictures as converted by the importer (images/metafile.ts: records → display list → vector picture,
 * its bitmaps re-encoded as PNG), kept across imports in this process, as the renderer keeps decoded images across
 * documents (pdf/images.ts). The conversion is the costliest step of importing a file with such pictures — a
 * 1024×1024 bitmap inside an EMF takes inflating, decoding, flipping and deflating again, ~100 ms — and its result
 * depends only on the picture's bytes and the pixel limit: a template uploaded again (a new version, the letterhead
 * another template shares) has the same pictures.
 *
 * Keyed by the zip entry as stored (zip.ts `stored()`: method, flags, CRC, size and the compressed bytes, compared
 * in full), so a hit costs no inflating either; bounded by the bytes it holds.
 */
export interface ConvertedMetafile {
  format: 'EMF' | 'WMF';
  /** The vector picture's data: URI; undefined when the picture could not be drawn. */
  uri?: string;
  /** Drawn from records that stop before their end. */
  damaged: boolean;
}

export interface StoredEntry {
  method: number;
  flags: number;
  crc: number;
  size: number;
  raw: Uint8Array;
}

interface Slot {
  raw: Uint8Array;
  value: ConvertedMetafile;
  bytes: number;
}

const MAX_CACHED_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, Slot>();
let cachedBytes = 0;

function keyOf(entry: StoredEntry, maxPixels: number): string {
  return `${entry.method}:${entry.flags}:${entry.crc}:${entry.size}:${entry.raw.length}:${maxPixels}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** The conversion of an entry with exactly these stored bytes at this pixel limit, when one was kept. */
export function cachedMetafile(entry: StoredEntry, maxPixels: number): ConvertedMetafile | undefined {
  const slot = cache.get(keyOf(entry, maxPixels));
  return slot && sameBytes(slot.raw, entry.raw) ? slot.value : undefined;
}

export function rememberMetafile(entry: StoredEntry, maxPixels: number, value: ConvertedMetafile): void {
  const key = keyOf(entry, maxPixels);
  const old = cache.get(key);
  if (old) {
    cache.delete(key);
    cachedBytes -= old.bytes;
  }
  // A copy: the entry's bytes are a view of the whole .docx, which must not stay alive with them.
  const slot = { raw: entry.raw.slice(), value, bytes: entry.raw.length + (value.uri?.length ?? 0) };
  if (slot.bytes > MAX_CACHED_BYTES / 4) return;
  cache.set(key, slot);
  cachedBytes += slot.bytes;
  for (const [k, v] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    cache.delete(k);
    cachedBytes -= v.bytes;
  }
}
