/**
 * Inputs at (or just under) the default limits, for bench/hostile.ts: a .docx whose document.xml is over 30 MB
 * yet inside the zip limits, a PNG of 40 megapixels as a data URI inside the 10 MB body, a 10 MB data body and a
 * 1 MB word with no break in it.
 */
import { deflateSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const SECT = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';

/** A small deterministic generator, so every run measures the same file. */
function words(seed: number): () => string {
  let x = seed >>> 0 || 1;
  const next = (): number => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return () => {
    const n = 3 + (next() % 8);
    let w = '';
    for (let i = 0; i < n; i++) w += String.fromCharCode(97 + (next() % 26));
    return w;
  };
}

/** A .docx with a document.xml of at least `xmlBytes` (plain paragraphs of made-up words, a tag now and then). */
export function bigDocx(xmlBytes = 32 * 1024 * 1024): { bytes: Uint8Array; xmlBytes: number } {
  const word = words(42);
  const parts: string[] = [`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>`];
  let size = parts[0].length;
  let n = 0;
  while (size < xmlBytes) {
    let text = '';
    for (let i = 0; i < 12; i++) text += `${word()} `;
    if (n % 500 === 0) text += `{{field_${n % 50}}}`;
    const p = `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r><w:r><w:t xml:space="preserve">${word()} ${word()}</w:t></w:r></w:p>`;
    parts.push(p);
    size += p.length;
    n++;
  }
  parts.push(`${SECT}</w:body></w:document>`);
  const xml = parts.join('');
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(xml),
  };
  return { bytes: zipSync(files, { level: 6 }), xmlBytes: xml.length };
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  let crc = -1;
  for (const data of parts) for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32([typeBytes, data]));
  return out;
}

/**
 * A width×height RGB PNG as a data URI: bands of colour and a diagonal line, so that 40 megapixels (120 MB once
 * decoded) fit in a few hundred kilobytes — a picture at the pixel limit well inside the body limit.
 */
export function bigPngDataUri(width: number, height: number): string {
  const row = 1 + width * 3;
  const raw = new Uint8Array(row * height);
  for (let y = 0; y < height; y++) {
    const at = y * row;
    const band = Math.floor((y * 8) / height);
    raw.fill(40 + band * 25, at + 1, at + row);
    const x = Math.floor((y * width) / height);
    raw[at + 1 + x * 3] = 255;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8;
  header[9] = 2;
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A data object of about `bytes` of JSON in `rows` rows (their descriptions as long as it takes). */
export function bigData(bytes: number, rows = 10_000): Record<string, unknown> {
  const word = words(7);
  const perRow = Math.max(40, Math.floor(bytes / rows) - 40);
  const out: Array<Record<string, string>> = [];
  let size = 0;
  while (size < bytes && out.length < rows) {
    let description = '';
    while (description.length < perRow) description += `${word()} `;
    const row = { description, qty: word(), amount: word() };
    size += JSON.stringify(row).length + 1;
    out.push(row);
  }
  return { title: 'Big data', rows: out };
}
