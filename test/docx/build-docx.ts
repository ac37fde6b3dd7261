/**
 * Builds small, real .docx files for tests: a valid OPC package (content types, package relationships, main
 * part, styles, numbering, headers, footers, media) written with fflate. Tests describe only what they need.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { zipSync, strToU8, type Zippable } from 'fflate';
import { solidPng } from '../../scripts/lib/png.js';

export const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ' +
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" ' +
  'xmlns:v="urn:schemas-microsoft-com:vml"';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface DocxParts {
  /** Inner XML of w:body (the final w:sectPr is added unless `sectPr` is given or the body has one). */
  body: string;
  sectPr?: string;
  styles?: string;
  numbering?: string;
  theme?: string;
  settings?: string;
  /** Header/footer parts: name (e.g. 'header1') → inner XML of w:hdr / w:ftr. */
  headers?: Record<string, string>;
  footers?: Record<string, string>;
  /** Media files: name in word/media → bytes. Relationship ids are 'img_<name without extension>'. */
  media?: Record<string, Uint8Array>;
  /** Extra relationships of the main part: id → [type, target, external?]. */
  rels?: Record<string, [string, string, boolean?]>;
  /** Raw extra zip entries (path → bytes or text). */
  extra?: Record<string, Uint8Array | string>;
  mainPath?: string;
}

export const DEFAULT_SECT =
  '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';

export function p(text: string, pPr = '', rPr = ''): string {
  return `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function buildDocx(parts: DocxParts): Uint8Array {
  const main = parts.mainPath ?? 'word/document.xml';
  const mainName = main.slice(main.lastIndexOf('/') + 1);
  const files: Zippable = {};
  const overrides: string[] = [
    `<Override PartName="/${main}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>`,
  ];
  const rels: string[] = [];
  const addRel = (id: string, type: string, target: string, external = false): void => {
    rels.push(`<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ''}/>`);
  };
  const mediaRels: string[] = [];
  for (const name of Object.keys(parts.media ?? {})) {
    mediaRels.push(`<Relationship Id="img_${name.replace(/\.[^.]+$/, '')}" Type="${REL}/image" Target="media/${name}"/>`);
    files[`word/media/${name}`] = parts.media![name];
  }
  if (parts.styles !== undefined) {
    files['word/styles.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W_NS}>${parts.styles}</w:styles>`);
    overrides.push('<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>');
    addRel('rIdStyles', 'styles', 'styles.xml');
  }
  if (parts.numbering !== undefined) {
    files['word/numbering.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:numbering ${W_NS}>${parts.numbering}</w:numbering>`);
    overrides.push('<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>');
    addRel('rIdNumbering', 'numbering', 'numbering.xml');
  }
  if (parts.settings !== undefined) {
    files['word/settings.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:settings ${W_NS}>${parts.settings}</w:settings>`);
    overrides.push('<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>');
    addRel('rIdSettings', 'settings', 'settings.xml');
  }
  if (parts.theme !== undefined) {
    files['word/theme/theme1.xml'] = strToU8(parts.theme);
    overrides.push('<Override PartName="/word/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>');
    addRel('rIdTheme', 'theme', 'theme/theme1.xml');
  }
  for (const [kind, tag, set] of [
    ['header', 'hdr', parts.headers],
    ['footer', 'ftr', parts.footers],
  ] as const) {
    for (const [name, inner] of Object.entries(set ?? {})) {
      files[`word/${name}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:${tag} ${W_NS}>${inner}</w:${tag}>`);
      overrides.push(`<Override PartName="/word/${name}.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.${kind}+xml"/>`);
      addRel(`rId_${name}`, kind, `${name}.xml`);
      if (mediaRels.length > 0) {
        files[`word/_rels/${name}.xml.rels`] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${mediaRels.join('')}</Relationships>`);
      }
    }
  }
  for (const [id, [type, target, external]] of Object.entries(parts.rels ?? {})) addRel(id, type, target, external);
  const hasSect = parts.body.includes('<w:sectPr') && parts.sectPr === undefined;
  const body = hasSect ? parts.body : parts.body + (parts.sectPr ?? DEFAULT_SECT);
  files[main] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W_NS}><w:body>${body}</w:body></w:document>`);
  files[`word/_rels/${mainName}.rels`] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}${mediaRels.join('')}</Relationships>`,
  );
  files['_rels/.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${main}"/></Relationships>`,
  );
  files['[Content_Types].xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpeg" ContentType="image/jpeg"/>${overrides.join('')}</Types>`,
  );
  for (const [path, content] of Object.entries(parts.extra ?? {})) files[path] = typeof content === 'string' ? strToU8(content) : content;
  return collect(zipSync(files));
}

/**
 * With DOCLOOM_COLLECT_DOCX=<folder>, every .docx the tests build is also written there (named by its SHA-1), for
 * `npm run diff:docxtemplater -- --dir <folder>` (issue #12: the differential covers the tests' templates too).
 */
function collect(bytes: Uint8Array): Uint8Array {
  const dir = process.env.DOCLOOM_COLLECT_DOCX;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${createHash('sha1').update(bytes).digest('hex')}.docx`), bytes);
  }
  return bytes;
}

/** A tiny valid PNG (w×h, one colour), so tests need no image files. */
export function makePng(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Uint8Array {
  return new Uint8Array(solidPng(width, height, rgb));
}

/** The first bytes of an EMF file (record type 1, " EMF" at offset 40): a picture format the renderer does not draw. */
export function emfBytes(): Uint8Array {
  const b = new Uint8Array(108);
  b[0] = 1;
  b.set([0x20, 0x45, 0x4d, 0x46], 40);
  return b;
}

/** A .docx holding `{{name}}`, one EMF picture and one chart: imported with two warnings. */
export function docxWithWarnings(): Uint8Array {
  const pic =
    '<w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="img_logo"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>';
  const chart =
    '<w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="9" name="Chart"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>';
  return buildDocx({
    body: `<w:p>${pic}<w:r><w:t>Hello {{name}}</w:t></w:r></w:p><w:p>${chart}</w:p>`,
    media: { 'logo.emf': emfBytes() },
    rels: { rIdChart: ['chart', 'charts/chart1.xml'] },
  });
}
