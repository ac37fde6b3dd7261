/**
 * Writes the bound blocks of one part back as WordprocessingML. Everything about tags was decided before: the
 * compiler (tags/compile.ts) read the part through fill-source.ts, and the binder (bind/bind.ts) expanded loops,
 * removed conditions and formatted values exactly as for the PDF. What is left here is XML only: source objects
 * binding handed back unchanged are copied as they were; rewritten paragraphs get their w:pPr, each text run its
 * w:rPr and wrappers (hyperlinks, content controls…), text escaped, line breaks as w:br, tabs as w:tab and the
 * characters XML forbids dropped; page fields and pictures are written as Word writes them.
 */
import type { Block, ImageRun, Inline, Paragraph, Table, TableCell, TableRow } from '../model/types.js';
import { escapeAttr, escapeText } from './fill-xml.js';
import type { Dialect, SourcePart, XmlAtom, XmlCellProps, XmlParagraphStyle, XmlRowProps, XmlRunStyle, XmlTableStyle } from './fill-source.js';

/** Returns the drawing XML (a whole w:r) for a bound picture. */
export type PicturePlacer = (run: ImageRun) => string;

const FIELD_INSTR: Record<string, string> = { page: ' PAGE ', pages: ' NUMPAGES ' };

export function writeBlocks(blocks: Block[], source: SourcePart, placePicture: PicturePlacer): string {
  let out = '';
  for (const block of blocks) out += writeBlock(block, source, placePicture);
  return out;
}

function writeBlock(block: Block, source: SourcePart, placePicture: PicturePlacer): string {
  const kept = source.verbatim.get(block);
  if (kept !== undefined) return kept;
  switch (block.type) {
    case 'paragraph':
      return writeParagraph(block, source, placePicture);
    case 'table':
      return writeTable(block, source, placePicture);
    case 'pageBreak':
      return '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
    default:
      return (block as unknown as XmlAtom).xml ?? '';
  }
}

function writeParagraph(para: Paragraph, source: SourcePart, placePicture: PicturePlacer): string {
  const d = source.dialect;
  let out = `<${d}:p>${(para.style as XmlParagraphStyle | undefined)?.pPr ?? ''}`;
  let open: number[] = [];
  for (const run of para.runs) {
    const wraps = wrapsOf(run);
    let same = 0;
    while (same < open.length && same < wraps.length && open[same] === wraps[same]) same++;
    for (let i = open.length - 1; i >= same; i--) out += source.wrappers[open[i]][1];
    for (let i = same; i < wraps.length; i++) out += source.wrappers[wraps[i]][0];
    open = wraps;
    out += writeRun(run, d, placePicture);
  }
  for (let i = open.length - 1; i >= 0; i--) out += source.wrappers[open[i]][1];
  return `${out}</${d}:p>`;
}

function wrapsOf(run: Inline): number[] {
  if ((run as unknown as XmlAtom).type === 'xml') return (run as unknown as XmlAtom).wraps ?? [];
  if (run.type === 'image' || run.type === 'chart' || run.type === 'shape') return [];
  return (run.style as XmlRunStyle | undefined)?.wraps ?? [];
}

function writeRun(run: Inline, dialect: Dialect, placePicture: PicturePlacer): string {
  if ((run as unknown as XmlAtom).type === 'xml') return (run as unknown as XmlAtom).xml;
  switch (run.type) {
    case 'text': {
      const rPr = (run.style as XmlRunStyle | undefined)?.rPr ?? '';
      if (dialect === 'a') return drawingRunText(run.text, rPr);
      return run.text === '' ? '' : `<w:r>${rPr}${runText(run.text)}</w:r>`;
    }
    case 'field': {
      const rPr = (run.style as XmlRunStyle | undefined)?.rPr ?? '';
      return `<w:fldSimple w:instr="${FIELD_INSTR[run.field]}"><w:r>${rPr}<w:t>1</w:t></w:r></w:fldSimple>`;
    }
    case 'image':
      return placePicture(run);
    case 'chart':
    case 'shape':
      // fill-source keeps a drawing (a chart or a shape included) whole as XML: neither run reaches the writer.
      return '';
  }
}

/** A run's content: text pieces, w:br for line breaks (\r\n, \n, \r alike), w:tab for tabs. */
function runText(text: string): string {
  let out = '';
  for (const piece of text.split(/(\r\n|\n|\r|\t)/)) {
    if (piece === '') continue;
    if (piece === '\t') out += '<w:tab/>';
    else if (piece === '\n' || piece === '\r' || piece === '\r\n') out += '<w:br/>';
    else {
      const escaped = escapeText(piece);
      if (escaped !== '') out += `<w:t xml:space="preserve">${escaped}</w:t>`;
    }
  }
  return out;
}

/** DrawingML: text in a:r runs, a line break as a:br between them (with the run's properties, as PowerPoint writes it). */
function drawingRunText(text: string, rPr: string): string {
  let out = '';
  for (const piece of text.split(/(\r\n|\n|\r)/)) {
    if (piece === '') continue;
    if (piece === '\n' || piece === '\r' || piece === '\r\n') out += `<a:br>${rPr}</a:br>`;
    else {
      const escaped = escapeText(piece);
      if (escaped !== '') out += `<a:r>${rPr}<a:t>${escaped}</a:t></a:r>`;
    }
  }
  return out;
}

function writeTable(table: Table, source: SourcePart, placePicture: PicturePlacer): string {
  let out = `<w:tbl>${(table.style as unknown as XmlTableStyle | undefined)?.tblPre ?? ''}`;
  for (const row of table.rows) out += writeRow(row, source, placePicture);
  return `${out}</w:tbl>`;
}

function writeRow(row: TableRow, source: SourcePart, placePicture: PicturePlacer): string {
  const kept = source.verbatim.get(row);
  if (kept !== undefined) return kept;
  let out = `<w:tr>${(row as TableRow & Partial<XmlRowProps>).trPre ?? ''}`;
  for (const cell of row.cells) out += writeCell(cell, source, placePicture);
  return `${out}</w:tr>`;
}

function writeCell(cell: TableCell, source: SourcePart, placePicture: PicturePlacer): string {
  const body = writeBlocks(cell.blocks, source, placePicture);
  // A cell must end with a paragraph (Word refuses a cell that is empty or ends with a table).
  const last = cell.blocks[cell.blocks.length - 1];
  const tail = last === undefined || last.type === 'table' ? '<w:p/>' : '';
  return `<w:tc>${(cell as TableCell & Partial<XmlCellProps>).tcPr ?? ''}${body}${tail}</w:tc>`;
}

/** An inline picture (DrawingML) referring to relationship `relId`; sizes in points. */
export function inlinePictureXml(relId: string, id: number, width: number, height: number, name: string): string {
  const cx = Math.round(width * 12700);
  const cy = Math.round(height * 12700);
  const a = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const alt = escapeAttr(name);
  return (
    `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${id}" name="${alt}"/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${a}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    `<a:graphic xmlns:a="${a}"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${id}" name="${alt}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${relId}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
  );
}
