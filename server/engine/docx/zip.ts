/**
 * Reads a .docx container without trusting it. The central directory is parsed first and every limit is checked
 * against the sizes it declares, before a single byte is inflated (zip bombs are refused for free). Entries are
 * inflated lazily, only the ones the importer asks for, by node:zlib into a buffer of the declared size and
 * stopped as soon as the output passes it (flate.ts), so an entry that lies about its size cannot use more memory
 * or time than an honest one; its CRC must match too.
 */
import { EngineError } from '../errors.js';
import { InflateOverflow, inflateSized } from '../flate.js';
import type { DocxLimits } from './limits.js';
// Node's CRC-32 (zlib's, a plain function: no stream or handle that a stopped worker could leave half-closed).
import { crc32 } from 'node:zlib';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
/** Entries this small cannot be bombs whatever their ratio (a tiny XML part of repeated spaces compresses a lot). */
const RATIO_EXEMPT_BYTES = 4096;

/** Entry names: UTF-8 when flag bit 11 says so, else read as Latin-1 (one shared decoder each, not one per entry). */
const UTF8_NAMES = new TextDecoder('utf-8');
const LATIN1_NAMES = new TextDecoder('latin1');

function corrupt(detail: string): EngineError {
  return new EngineError('invalid_template', `The .docx file is damaged: ${detail}.`);
}

export function hasZipSignature(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export class ZipArchive {
  /** Entries by lower-cased name (OPC part names are case-insensitive). */
  private readonly entries = new Map<string, ZipEntry>();
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    limits: DocxLimits,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readCentralDirectory(limits);
  }

  private u16(at: number): number {
    if (at + 2 > this.bytes.length) throw corrupt('a record runs past the end of the file');
    return this.view.getUint16(at, true);
  }

  private u32(at: number): number {
    if (at + 4 > this.bytes.length) throw corrupt('a record runs past the end of the file');
    return this.view.getUint32(at, true);
  }

  private u64(at: number): number {
    const low = this.u32(at);
    const high = this.u32(at + 4);
    return high * 0x1_0000_0000 + low;
  }

  private findEndOfCentralDirectory(): number {
    const last = this.bytes.length - 22;
    const first = Math.max(0, last - 0xffff);
    for (let at = last; at >= first; at--) {
      if (this.bytes[at] === 0x50 && this.bytes[at + 1] === 0x4b && this.u32(at) === SIG_EOCD) return at;
    }
    throw corrupt('no central directory (truncated file?)');
  }

  private readCentralDirectory(limits: DocxLimits): void {
    const eocd = this.findEndOfCentralDirectory();
    let count = this.u16(eocd + 10);
    let cdOffset = this.u32(eocd + 16);
    if (count === 0xffff || cdOffset === 0xffffffff) {
      const locator = eocd - 20;
      if (locator < 0 || this.u32(locator) !== SIG_ZIP64_LOCATOR) throw corrupt('bad ZIP64 locator');
      const z64 = this.u64(locator + 8);
      if (this.u32(z64) !== SIG_ZIP64_EOCD) throw corrupt('bad ZIP64 directory');
      count = this.u64(z64 + 32);
      cdOffset = this.u64(z64 + 48);
    }
    if (count > limits.maxEntries) {
      throw new EngineError('too_large', `The .docx file has ${count} entries; the limit is ${limits.maxEntries}.`);
    }
    let total = 0;
    let at = cdOffset;
    for (let i = 0; i < count; i++) {
      if (this.u32(at) !== SIG_CENTRAL) throw corrupt('bad central directory entry');
      const flags = this.u16(at + 8);
      const method = this.u16(at + 10);
      const crc = this.u32(at + 16);
      let compressedSize = this.u32(at + 20);
      let size = this.u32(at + 24);
      const nameLen = this.u16(at + 28);
      const extraLen = this.u16(at + 30);
      const commentLen = this.u16(at + 32);
      let localOffset = this.u32(at + 42);
      const nameBytes = this.bytes.subarray(at + 46, at + 46 + nameLen);
      const name = (flags & 0x800 ? UTF8_NAMES : LATIN1_NAMES).decode(nameBytes);
      // ZIP64 extra field: the 64-bit values of whichever sizes are saturated, in this order.
      if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
        let e = at + 46 + nameLen;
        const end = e + extraLen;
        while (e + 4 <= end) {
          const id = this.u16(e);
          const len = this.u16(e + 2);
          if (id === 0x0001) {
            let f = e + 4;
            if (size === 0xffffffff) {
              size = this.u64(f);
              f += 8;
            }
            if (compressedSize === 0xffffffff) {
              compressedSize = this.u64(f);
              f += 8;
            }
            if (localOffset === 0xffffffff) localOffset = this.u64(f);
            break;
          }
          e += 4 + len;
        }
      }
      total += size;
      if (total > limits.maxUncompressedBytes) {
        throw new EngineError(
          'too_large',
          `The .docx file inflates to more than ${limits.maxUncompressedBytes} bytes (the uncompressed size limit).`,
        );
      }
      if (size > RATIO_EXEMPT_BYTES && size > compressedSize * limits.maxEntryRatio) {
        throw new EngineError(
          'too_large',
          `The .docx entry "${name}" expands ${compressedSize === 0 ? 'without bound' : `${Math.round(size / compressedSize)} times`}; the limit is ${limits.maxEntryRatio} times per entry.`,
        );
      }
      const key = name.replace(/^\/+/, '').toLowerCase();
      if (!this.entries.has(key)) this.entries.set(key, { name, method, flags, crc, compressedSize, size, localOffset });
      at += 46 + nameLen + extraLen + commentLen;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name.replace(/^\/+/, '').toLowerCase());
  }

  names(): string[] {
    return [...this.entries.values()].map((e) => e.name);
  }

  /** The inflated bytes of an entry, or undefined when there is no such entry. */
  read(name: string): Uint8Array | undefined {
    const entry = this.entries.get(name.replace(/^\/+/, '').toLowerCase());
    if (!entry) return undefined;
    if (entry.flags & 0x1) throw new EngineError('unsupported_file', 'Encrypted .docx files are not supported.');
    const local = entry.localOffset;
    if (this.u32(local) !== SIG_LOCAL) throw corrupt(`bad local header for ${entry.name}`);
    const start = local + 30 + this.u16(local + 26) + this.u16(local + 28);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw corrupt(`${entry.name} runs past the end of the file`);
    const compressed = this.bytes.subarray(start, end);
    let data: Uint8Array;
    if (entry.method === 0) {
      data = compressed;
    } else if (entry.method === 8) {
      data = inflateBounded(compressed, entry.size, entry.name);
    } else {
      throw corrupt(`${entry.name} uses compression method ${entry.method}`);
    }
    if (data.length !== entry.size) throw corrupt(`${entry.name} is not the size its directory says`);
    if (crc32(data) !== entry.crc) throw corrupt(`${entry.name} fails its checksum`);
    return data;
  }
}

function inflateBounded(compressed: Uint8Array, declared: number, name: string): Uint8Array {
  try {
    return inflateSized(compressed, declared, 'raw');
  } catch (err) {
    if (err instanceof InflateOverflow) throw corrupt(`${name} inflates past its declared size`);
    throw corrupt(`${name} cannot be inflated`);
  }
}
