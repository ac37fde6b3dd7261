/**
 * EMF/WMF conversions kept across imports (docx/metafile-cache.ts): keyed by the zip entry as stored and the pixel
 * limit, so a template imported again reuses its pictures' conversion, and gets exactly what a first import gets —
 * the same picture in the model, the same warnings naming its own part — while other bytes or another limit are
 * converted afresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, setMaxImagePixels, type ImportWarning } from '../../server/engine/index.js';
import { DEFAULT_DOCX_LIMITS } from '../../server/engine/docx/limits.js';
import { cachedMetafile } from '../../server/engine/docx/metafile-cache.js';
import { ZipArchive } from '../../server/engine/docx/zip.js';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../../server/engine/pdf/images.js';
import { buildDocx } from './build-docx.js';
import { emfPicture } from './metafile-bytes.js';

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];

const picture = (rel: string): string =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1828800" cy="914400"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="${rel}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** The data: URIs of the pictures in a compiled template's model, and its warnings. */
function imported(docx: Uint8Array): { uris: string[]; warnings: Array<[string, string]> } {
  const result = compileTemplate({ kind: 'docx', bytes: docx });
  assert.ok(result.ok, JSON.stringify(result));
  const uris = [...JSON.stringify(result.template).matchAll(/data:application\/vnd\.docloom\.drawing\+json;base64,[A-Za-z0-9+/=]+/g)].map((m) => m[0]);
  return { uris, warnings: result.warnings.map((w: ImportWarning) => [w.code, w.location.part ?? '']) };
}

function stored(docx: Uint8Array, part: string): NonNullable<ReturnType<ZipArchive['stored']>> {
  const entry = new ZipArchive(docx, DEFAULT_DOCX_LIMITS).stored(part);
  assert.ok(entry, part);
  return entry;
}

test('a picture imported again is the same picture: from the conversion kept at the first import', () => {
  const emf = emfPicture(RED, BLUE);
  const first = buildDocx({ body: picture('img_chart'), media: { 'chart.emf': emf } });
  assert.equal(cachedMetafile(stored(first, 'word/media/chart.emf'), DEFAULT_MAX_IMAGE_PIXELS), undefined, 'not converted yet');
  const a = imported(first);
  assert.equal(a.uris.length, 1);
  const kept = cachedMetafile(stored(first, 'word/media/chart.emf'), DEFAULT_MAX_IMAGE_PIXELS);
  assert.equal(kept?.uri, a.uris[0], 'the conversion is kept');
  // Another template with the same picture under another name: the same conversion, the same picture.
  const other = buildDocx({ body: `<w:p><w:r><w:t>Letter</w:t></w:r></w:p>${picture('img_logo')}`, media: { 'logo.emf': emf } });
  assert.equal(cachedMetafile(stored(other, 'word/media/logo.emf'), DEFAULT_MAX_IMAGE_PIXELS)?.uri, a.uris[0]);
  assert.deepEqual(imported(other).uris, a.uris);
  assert.deepEqual(imported(first), a);
});

test('a damaged or undrawable picture imported again gives the same warning, naming its own part', () => {
  const cut = emfPicture(RED, BLUE).slice(0, 108 + 24 + 12 + 12 + 24 + 60);
  for (const name of ['cut.emf', 'again.emf']) {
    const docx = buildDocx({ body: picture(`img_${name.slice(0, -4)}`), media: { [name]: cut } });
    const { uris, warnings } = imported(docx);
    assert.equal(uris.length, 1, 'drawn as far as it could be read');
    assert.deepEqual(warnings, [['part_damaged', `word/media/${name}`]]);
  }
  // Nothing drawable (only an EMR_SMALLTEXTOUT, which is not read): a placeholder and the same warning every time.
  const header = emfPicture(RED, BLUE).slice(0, 108);
  const text = Uint8Array.of(108, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const eof = Uint8Array.of(14, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 20, 0, 0, 0);
  const empty = new Uint8Array([...header, ...text, ...eof]);
  for (let i = 0; i < 2; i++) {
    const { uris, warnings } = imported(buildDocx({ body: picture('img_empty'), media: { 'empty.emf': empty } }));
    assert.deepEqual([uris.length, warnings.map((w) => w[0])], [0, ['picture_format_unsupported']]);
  }
});

test('other bytes or another pixel limit are converted afresh', () => {
  const docx = buildDocx({ body: picture('img_chart'), media: { 'chart.emf': emfPicture(RED, BLUE) } });
  const before = imported(docx).uris;
  // Another bitmap colour: other bytes, another picture.
  const blue = imported(buildDocx({ body: picture('img_chart'), media: { 'chart.emf': emfPicture(RED, RED) } })).uris;
  assert.notDeepEqual(blue, before);
  // A limit the embedded bitmap is over: the bitmap is left out of this import's picture, not taken from the cache.
  setMaxImagePixels(4);
  try {
    const small = imported(docx).uris;
    assert.equal(small.length, 1);
    assert.notEqual(small[0], before[0]);
  } finally {
    setMaxImagePixels(DEFAULT_MAX_IMAGE_PIXELS);
  }
  assert.deepEqual(imported(docx).uris, before);
});
