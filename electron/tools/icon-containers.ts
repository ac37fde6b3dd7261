/**
 * The icon containers electron-builder packs, around PNGs from the project's codec (scripts/lib/png.ts).
 * ICO and ICNS both accept PNG-compressed entries (Windows Vista+, macOS 10.7+), so they just wrap PNGs.
 */

/** A Windows .ico holding the given PNGs (each at most 256 px; 256 is written as 0, as the format says). */
export function encodeIco(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const { size, png } of images) {
    if (size > 256) throw new Error('an .ico entry is at most 256 px');
    const entry = Buffer.alloc(16);
    entry[0] = size === 256 ? 0 : size;
    entry[1] = size === 256 ? 0 : size;
    entry[2] = 0; // no palette
    entry[3] = 0;
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

/** The ICNS entry type for a PNG of each size (macOS 10.7+ reads PNG data in these). */
export const ICNS_TYPES: Readonly<Record<number, string>> = { 32: 'ic11', 64: 'ic12', 128: 'ic07', 256: 'ic08', 512: 'ic09', 1024: 'ic10' };

export function encodeIcns(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const entries = images.map(({ size, png }) => {
    const type = ICNS_TYPES[size];
    if (!type) throw new Error(`no .icns entry type for ${size} px`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + entries.reduce((sum, entry) => sum + entry.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}
