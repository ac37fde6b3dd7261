/**
 * The one-page Word invoice the service benchmarks render (bench/http-docx.ts, bench/threads.ts): built here, not a
 * file, so every run renders the same document; and its data for the n-th document.
 */
import { buildDocx, p } from '../../test/docx/build-docx.js';

const CELL = (text: string, width: number, rPr = ''): string =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${p(text, '', rPr)}</w:tc>`;
const WIDTHS = [4600, 1000, 1600, 1826];
const ROW = (cells: string[], rPr = ''): string => `<w:tr>${cells.map((c, i) => CELL(c, WIDTHS[i], rPr)).join('')}</w:tr>`;
const BORDERS =
  '<w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders>';
const SECT =
  '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:footerReference w:type="default" r:id="rId_footer1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';

/** The one-page Word invoice: a header, a footer, addresses, a 20-row items table (a row loop), totals. */
export function invoiceDocx(): Uint8Array {
  return buildDocx({
    body:
      p('INVOICE {{number}}', '<w:jc w:val="right"/>', '<w:b/><w:sz w:val="40"/>') +
      p('Date {{date}} · due {{due_date}}', '<w:jc w:val="right"/>') +
      p('{{seller.name}}', '', '<w:b/>') +
      p('{{seller.address}}') +
      p('Bill to: {{buyer.name}}', '', '<w:b/>') +
      p('{{buyer.address}}') +
      `<w:tbl><w:tblPr><w:tblW w:w="9026" w:type="dxa"/>${BORDERS}</w:tblPr><w:tblGrid>${WIDTHS.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>` +
      ROW(['Description', 'Qty', 'Unit price', 'Amount'], '<w:b/>') +
      ROW(['{{#items}}{{description}}', '{{qty}}', '{{unit_price}}', '{{amount}}{{/items}}']) +
      '</w:tbl>' +
      p('Subtotal {{subtotal}}', '<w:jc w:val="right"/>') +
      p('VAT 20% {{vat}}', '<w:jc w:val="right"/>') +
      p('Total due {{total}}', '<w:jc w:val="right"/>', '<w:b/>'),
    sectPr: SECT,
    headers: { header1: p('Northwind Studio LLC · Invoice {{number}}', '<w:jc w:val="right"/>', '<w:sz w:val="16"/>') },
    footers: { footer1: p('IBAN US12 3456 7890 1234 · Thank you for your business.', '<w:jc w:val="center"/>', '<w:sz w:val="16"/>') },
  });
}

export function invoiceDocxData(n: number): Record<string, unknown> {
  return {
    number: `INV-2026-${String(n).padStart(4, '0')}`,
    date: '22 November 2026',
    due_date: '22 December 2026',
    seller: { name: 'Northwind Studio LLC', address: '1200 Harbor Street, Suite 4, Seattle, WA 98101' },
    buyer: { name: 'Contoso Trading Ltd.', address: '48 Market Lane, Bristol BS1 4DJ, United Kingdom' },
    items: Array.from({ length: 20 }, (_, i) => ({
      description: `Consulting services, item ${i + 1} – phase ${i + 1}`,
      qty: String(i + 1),
      unit_price: `€${(12.5 * (i + 1)).toFixed(2)}`,
      amount: `€${(12.5 * (i + 1) * (i + 1)).toFixed(2)}`,
    })),
    subtotal: '€35,875.00',
    vat: '€7,175.00',
    total: '€43,050.00',
  };
}
