/**
 * Images: recognising formats by their bytes, decoding data: URIs, sizing ({{%logo:WxH}}, the default box, the
 * column width), URLs through the resolver, empty values, and the per-document limits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, EngineError, type CompiledTemplate } from '../../server/engine/index.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import { decodeDataUri, sniffImage } from '../../server/engine/images/sniff.js';
import { fitImage } from '../../server/engine/images/fit.js';
import type { Block, ImageRun, Paragraph } from '../../server/engine/model/types.js';
import { solidPng } from '../../scripts/lib/png.js';

/** A real, solid-colour RGB PNG of the given size. */
function png(width: number, height: number, shade = 128): Buffer {
  return solidPng(width, height, [shade, shade, shade]);
}

const uri = (bytes: Buffer, mime = 'image/png'): string => `data:${mime};base64,${bytes.toString('base64')}`;

/** A JPEG header: APP1 with an EXIF orientation (or APP0 JFIF without one) and a SOF0 giving the size. */
function jpeg(width: number, height: number, orientation: number | null): Buffer {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  let payload: Buffer;
  let marker: number;
  if (orientation === null) {
    marker = 0xe0;
    payload = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  } else {
    marker = 0xe1;
    const tiff = Buffer.alloc(26);
    tiff.write('MM', 0, 'latin1');
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(1, 8);
    tiff.writeUInt16BE(0x0112, 10);
    tiff.writeUInt16BE(3, 12);
    tiff.writeUInt32BE(1, 14);
    tiff.writeUInt16BE(orientation, 18);
    payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  }
  const segment = Buffer.from([0xff, marker, 0, 0]);
  segment.writeUInt16BE(payload.length + 2, 2);
  parts.push(segment, payload);
  parts.push(Buffer.from([0xff, 0xc0, 0, 11, 8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]), Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

function compile(doc: Record<string, unknown>): CompiledTemplate {
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, ...doc })) });
  if (!result.ok) assert.fail(JSON.stringify(result.errors));
  return result.template;
}

function images(blocks: Block[]): ImageRun[] {
  const out: ImageRun[] = [];
  const walk = (list: Block[]): void => {
    for (const b of list) {
      if (b.type === 'paragraph') for (const r of b.runs) if (r.type === 'image') out.push(r);
      if (b.type === 'table') for (const row of b.rows) for (const cell of row.cells) walk(cell.blocks);
    }
  };
  walk(blocks);
  return out;
}

test('sniffImage knows PNG, JPEG (with EXIF orientation), GIF and WebP by their bytes, and nothing else', () => {
  assert.deepEqual(sniffImage(png(30, 20)), { mime: 'image/png', width: 30, height: 20 });
  assert.deepEqual(sniffImage(jpeg(100, 50, 6)), { mime: 'image/jpeg', width: 100, height: 50, orientation: 6 });
  assert.deepEqual(sniffImage(jpeg(100, 50, null)), { mime: 'image/jpeg', width: 100, height: 50 });
  const gif = Buffer.from([...Buffer.from('GIF89a'), 40, 0, 20, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x3b]);
  assert.deepEqual(sniffImage(gif), { mime: 'image/gif', width: 40, height: 20 });
  const webp = Buffer.alloc(30);
  webp.write('RIFF', 0, 'latin1');
  webp.writeUInt32LE(22, 4);
  webp.write('WEBPVP8X', 8, 'latin1');
  webp.writeUInt32LE(10, 16);
  webp.writeUIntLE(99, 24, 3);
  webp.writeUIntLE(49, 27, 3);
  assert.deepEqual(sniffImage(webp), { mime: 'image/webp', width: 100, height: 50 });
  for (const junk of [Buffer.alloc(0), Buffer.from('hello'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), png(2, 2).subarray(0, 12), Buffer.from('BM123456789012345678901234')]) {
    assert.equal(sniffImage(junk), null);
  }
});

test('decodeDataUri trusts the bytes, not the declared type, and enforces the byte limit', () => {
  const bytes = png(4, 4);
  assert.deepEqual(decodeDataUri(uri(bytes), 1000), { data: bytes, mime: 'image/png' });
  assert.equal(decodeDataUri(uri(bytes, 'image/jpeg'), 1000).mime, 'image/png');
  assert.equal(decodeDataUri(`data:;base64,${bytes.toString('base64').replace(/(.{10})/g, '$1\n')}`, 1000).mime, 'image/png');
  const code = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      assert.ok(err instanceof EngineError);
      return err.code;
    }
    return 'none';
  };
  assert.equal(code(() => decodeDataUri('data:text/plain,hello', 1000)), 'invalid_image');
  assert.equal(code(() => decodeDataUri('data:image/png;base64,!!!', 1000)), 'invalid_image');
  assert.equal(code(() => decodeDataUri('data:image/png;base64', 1000)), 'invalid_image');
  assert.equal(code(() => decodeDataUri('https://example.com/x.png', 1000)), 'invalid_image');
  assert.equal(code(() => decodeDataUri(uri(png(200, 200)), 50)), 'image_too_large');
});

test('fitImage: a tag box is filled keeping the aspect ratio; the default box and the column cap the size', () => {
  // 180×60 px is 135×45 pt at 96 dpi.
  assert.deepEqual(fitImage({ width: 180, height: 60 }, { width: 200, height: 80 }, 500), { width: 200, height: 66.67 });
  assert.deepEqual(fitImage({ width: 180, height: 60 }, { width: 60, height: 60 }, 500), { width: 60, height: 20 });
  assert.deepEqual(fitImage({ width: 180, height: 60 }, null, 500), { width: 135, height: 45 });
  assert.deepEqual(fitImage({ width: 800, height: 400 }, null, 500), { width: 150, height: 75 });
  assert.deepEqual(fitImage({ width: 400, height: 800 }, null, 500), { width: 75, height: 150 });
  assert.deepEqual(fitImage({ width: 800, height: 400 }, { width: 400, height: 400 }, 100), { width: 100, height: 50 });
  // EXIF orientation 6 (turned a quarter): drawn 50 wide and 100 high.
  assert.deepEqual(fitImage({ width: 100, height: 50, orientation: 6 }, { width: 100, height: 100 }, 500), { width: 50, height: 100 });
});

test('image tags bind to data URIs sized to their box, in the body, in cells and in headers', async () => {
  const logo = uri(png(180, 60));
  const template = compile({
    header: [{ type: 'image', src: '{{%logo:90x90}}' }],
    body: [
      { type: 'image', src: '{{%logo:200x80}}', align: 'center' },
      '{{%logo}}',
      { type: 'table', columns: [60, '*'], rows: [['{{%logo:400x400}}', 'x']] },
    ],
  });
  const bound = await bindTemplate(template, { logo }, {});
  const body = images(bound.sections[0].body);
  assert.deepEqual(body.map((i) => [i.width, i.height]), [[200, 66.67], [135, 45], [52, 17.33]]);
  assert.ok(body.every((i) => i.src === logo && i.alt === 'logo'), 'the data URI is used as it came');
  assert.equal((bound.sections[0].body[0] as Paragraph).style?.align, 'center');
  assert.deepEqual(images(bound.sections[0].header?.default ?? []).map((i) => [i.width, i.height]), [[90, 30]]);
});

test('a data URI with the wrong declared type is rewritten with the right one', async () => {
  const bound = await bindTemplate(compile({ body: ['{{%pic}}'] }), { pic: uri(png(8, 8), 'image/gif') }, {});
  assert.match(images(bound.sections[0].body)[0].src, /^data:image\/png;base64,iVBOR/);
});

test('an empty or missing image renders nothing, and its paragraph goes with it', async () => {
  const template = compile({ body: ['A', '{{%logo}}', { type: 'image', src: '{{%logo:10x10}}' }, 'Logo: {{%logo}}', 'B'] });
  for (const data of [{}, { logo: '' }, { logo: null }, { logo: '  ' }]) {
    const bound = await bindTemplate(template, data, {});
    const texts = bound.sections[0].body.map((b) => (b as Paragraph).runs.map((r) => (r.type === 'text' ? r.text : '[img]')).join(''));
    assert.deepEqual(texts, ['A', 'Logo: ', 'B'], JSON.stringify(data));
  }
});

test('URLs go through resolveImage; without one they are refused', async () => {
  const template = compile({ body: ['{{%photo:100x100}}', '{{#people}}{{%avatar:20x20}}{{/people}}'] });
  const data = { photo: 'https://img.example/p.png', people: [{ avatar: 'https://img.example/a.png' }, { avatar: 'https://img.example/a.png' }] };
  await assert.rejects(bindTemplate(template, data, {}), (err: unknown) => err instanceof EngineError && err.code === 'image_url_not_allowed' && err.field === 'photo');
  const calls: Array<[string, string]> = [];
  const bound = await bindTemplate(template, data, {
    resolveImage: async (src, field) => {
      calls.push([src, field]);
      return { data: src.endsWith('p.png') ? png(50, 100) : jpeg(10, 10, null), mime: 'image/png' };
    },
  });
  // Each distinct URL is fetched once, however often it is used.
  assert.deepEqual(calls.sort(), [['https://img.example/a.png', 'avatar'], ['https://img.example/p.png', 'photo']]);
  const placed = images(bound.sections[0].body);
  assert.deepEqual(placed.map((i) => [i.width, i.height]), [[50, 100], [20, 20], [20, 20]]);
  assert.match(placed[0].src, /^data:image\/png;base64,/);
  assert.match(placed[1].src, /^data:image\/jpeg;base64,/, 'the type comes from the bytes');
});

test('bad image values are clear errors naming the field', async () => {
  const template = compile({ body: ['{{%img}}'] });
  const failing: Array<[unknown, string]> = [
    ['data:image/png;base64,AAAA', 'invalid_image'],
    ['ftp://example.com/x.png', 'invalid_image'],
    ['/etc/passwd', 'invalid_image'],
    [42, 'invalid_image'],
    [{ src: 'x' }, 'invalid_image'],
  ];
  for (const [img, code] of failing) {
    await assert.rejects(bindTemplate(template, { img }, {}), (err: unknown) => err instanceof EngineError && err.code === code && err.field === 'img', JSON.stringify(img));
  }
  const notAnImage = bindTemplate(template, { img: 'https://x.example/y' }, { resolveImage: async () => ({ data: Buffer.from('<html>'), mime: 'text/html' }) });
  await assert.rejects(notAnImage, (err: unknown) => err instanceof EngineError && err.code === 'invalid_image');
  const broken = bindTemplate(template, { img: 'https://x.example/y' }, { resolveImage: async () => { throw new Error('socket hang up'); } });
  await assert.rejects(broken, (err: unknown) => err instanceof EngineError && err.code === 'image_fetch_failed' && /socket hang up/.test(err.message));
});

test('limits: images per document (distinct images), bytes and pixels per image', async () => {
  const template = compile({ body: ['{{#imgs}}{{%.:10x10}}{{/imgs}}'] });
  const distinct = Array.from({ length: 51 }, (_, i) => uri(png(1, 1, i)));
  await assert.rejects(
    bindTemplate(template, { imgs: distinct }, {}),
    (err: unknown) => err instanceof EngineError && err.code === 'limit_exceeded' && /more than 50 different images/.test(err.message),
  );
  const sameOne = Array.from({ length: 200 }, () => distinct[0]);
  assert.equal(images((await bindTemplate(template, { imgs: sameOne }, {})).sections[0].body).length, 200);
  await assert.rejects(bindTemplate(template, { imgs: distinct.slice(0, 3) }, { limits: { imagesPerDocument: 2 } }), /more than 2 different images/);
  await assert.rejects(
    bindTemplate(template, { imgs: [uri(png(300, 300))] }, { limits: { imagePixels: 10_000 } }),
    (err: unknown) => err instanceof EngineError && err.code === 'image_too_large' && /300×300 pixels/.test(err.message),
  );
  await assert.rejects(
    bindTemplate(template, { imgs: [uri(png(300, 300))] }, { limits: { imageBytes: 100 } }),
    (err: unknown) => err instanceof EngineError && err.code === 'image_too_large',
  );
});

test('limits: rows per list and items per document name the limit and the field', async () => {
  const template = compile({ body: [{ type: 'table', rows: [['{{#rows}}{{a}}', '{{/rows}}']] }] });
  const rows = Array.from({ length: 10_001 }, (_, i) => ({ a: i }));
  await assert.rejects(
    bindTemplate(template, { rows }, {}),
    (err: unknown) =>
      err instanceof EngineError && err.code === 'limit_exceeded' && err.field === 'rows' &&
      err.message === 'The list "rows" has 10,001 items, more than the limit of 10,000 rows per list.',
  );
  const ok = await bindTemplate(template, { rows: rows.slice(0, 10_000) }, {});
  assert.equal((ok.sections[0].body[0] as { rows: unknown[] }).rows.length, 10_000);
  await assert.rejects(bindTemplate(template, { rows: rows.slice(0, 6) }, { limits: { rowsPerList: 5 } }), /limit of 5 rows per list/);
  const nested = compile({ body: ['{{#a}}', '{{#b}}{{.}}{{/b}}', '{{/a}}'] });
  const data = { a: Array.from({ length: 100 }, () => ({ b: Array.from({ length: 100 }, (_, i) => i) })) };
  await assert.rejects(bindTemplate(nested, data, { limits: { itemsPerDocument: 5_000 } }), (err: unknown) => err instanceof EngineError && err.code === 'limit_exceeded' && /items per document/.test(err.message));
});
