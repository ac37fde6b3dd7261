/**
 * The one-page invoice used by bench/engine-vs-handwritten.ts (and by test/engine/pdf): the same document
 * written two ways, by hand with jsPDF + jspdf-autotable, and as a bound template model for renderModel.
 * Both draw the same text: a title block, two addresses, a 20-row items table, totals and a footer.
 */
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import type { Block, Paragraph, RunStyle, TableRow, TemplateModel } from '../server/engine/model/types.js';

export interface InvoiceData {
  title: string;
  number: string;
  date: string;
  seller: string[];
  buyer: string[];
  headers: [string, string, string, string];
  items: Array<[string, string, string, string]>;
  totals: Array<[string, string]>;
  footer: string;
}

export function latinInvoice(rows = 20): InvoiceData {
  const items: InvoiceData['items'] = [];
  for (let i = 1; i <= rows; i++) {
    items.push([`Consulting services, item ${i} – “phase ${i}”`, String(i), `€${(i * 12.5).toFixed(2)}`, `€${(i * i * 12.5).toFixed(2)}`]);
  }
  return {
    title: 'INVOICE',
    number: 'No. INV-2026-0042 · 22 November 2026',
    date: 'Due 22 December 2026',
    seller: ['Northwind Studio LLC', '1200 Harbor Street, Suite 4', 'Seattle, WA 98101', 'billing@northwind.example'],
    buyer: ['Contoso Trading Ltd.', '48 Market Lane', 'Bristol BS1 4DJ', 'United Kingdom'],
    headers: ['Description', 'Qty', 'Unit price', 'Amount'],
    items,
    totals: [['Subtotal', '€35,875.00'], ['VAT 20%', '€7,175.00'], ['Total due', '€43,050.00']],
    footer: 'Northwind Studio LLC · IBAN US12 3456 7890 1234 · Thank you for your business.',
  };
}

export function cyrillicInvoice(rows = 20): InvoiceData {
  const items: InvoiceData['items'] = [];
  for (let i = 1; i <= rows; i++) {
    items.push([`Консультационные услуги, этап ${i} — «проект ${i}»`, String(i), `${(i * 12.5).toFixed(2)} ₽`, `${(i * i * 12.5).toFixed(2)} ₽`]);
  }
  return {
    title: 'СЧЁТ',
    number: '№ INV-2026-0042 · 22 ноября 2026 г.',
    date: 'Оплатить до 22 декабря 2026 г.',
    seller: ['ООО «Северный ветер»', 'ул. Гаванская, д. 12, офис 4', 'Санкт-Петербург, 199106', 'buh@severveter.example'],
    buyer: ['АО «Контосо Трейдинг»', 'Рыночный пер., д. 48', 'Москва, 101000', 'Россия'],
    headers: ['Описание', 'Кол-во', 'Цена', 'Сумма'],
    items,
    totals: [['Итого', '35 875,00 ₽'], ['НДС 20%', '7 175,00 ₽'], ['К оплате', '43 050,00 ₽']],
    footer: 'ООО «Северный ветер» · ИНН 7801234567 · Спасибо за сотрудничество!',
  };
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const COLUMNS = [255.28, 50, 70, 120];

/** The invoice drawn by hand: what a developer would write with jsPDF + autotable and the standard fonts. */
export function handwrittenInvoice(d: InvoiceData): Uint8Array {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true, putOnlyUsedFonts: true });
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(24);
  doc.text(d.title, A4.width - MARGIN, 70, { align: 'right' });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(10);
  doc.text(d.number, A4.width - MARGIN, 90, { align: 'right' });
  doc.text(d.date, A4.width - MARGIN, 104, { align: 'right' });
  let y = 140;
  d.seller.forEach((line, i) => {
    doc.setFont('helvetica', i === 0 ? 'bold' : 'normal');
    doc.text(line, MARGIN, y + i * 14);
  });
  d.buyer.forEach((line, i) => {
    doc.setFont('helvetica', i === 0 ? 'bold' : 'normal');
    doc.text(line, 320, y + i * 14);
  });
  y += 4 * 14 + 20;
  autoTable(doc, {
    startY: y,
    margin: { left: MARGIN, right: MARGIN },
    head: [d.headers],
    body: d.items,
    theme: 'grid',
    styles: { font: 'helvetica', fontSize: 9, cellPadding: 4 },
    headStyles: { fillColor: [31, 58, 95], textColor: 255, fontStyle: 'bold' },
    columnStyles: { 0: { cellWidth: COLUMNS[0] }, 1: { cellWidth: COLUMNS[1], halign: 'right' }, 2: { cellWidth: COLUMNS[2], halign: 'right' }, 3: { cellWidth: COLUMNS[3], halign: 'right' } },
  });
  y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 20;
  d.totals.forEach(([label, value], i) => {
    doc.setFont('helvetica', i === d.totals.length - 1 ? 'bold' : 'normal');
    doc.text(label, 400, y + i * 16, { align: 'right' });
    doc.text(value, A4.width - MARGIN, y + i * 16, { align: 'right' });
  });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(d.footer, A4.width / 2, A4.height - 30, { align: 'center' });
  doc.setProperties({ title: 'Invoice', creator: 'docloom' });
  return new Uint8Array(doc.output('arraybuffer'));
}

function p(text: string, style: RunStyle = {}, para: Paragraph['style'] = {}): Paragraph {
  return { type: 'paragraph', runs: [{ type: 'text', text, style }], style: para };
}

function cell(text: string, align: 'left' | 'right', style: RunStyle = {}, shading?: string) {
  return { blocks: [p(text, style, { align })], shading };
}

/** The same invoice as a bound model (what the engine renders after binding data to a template). */
export function invoiceModel(d: InvoiceData, font = 'Helvetica'): TemplateModel {
  const head: TableRow = {
    header: true,
    cells: d.headers.map((h, i) => cell(h, i === 0 ? 'left' : 'right', { bold: true, color: '#ffffff' }, '#1f3a5f')),
  };
  const rows: TableRow[] = d.items.map((r) => ({ cells: r.map((v, i) => cell(v, i === 0 ? 'left' : 'right')) }));
  const addresses: Block = {
    type: 'table',
    columns: [270, 225],
    style: { borders: null, cellPadding: 0 },
    rows: [{
      cells: [d.seller, d.buyer].map((lines) => ({ blocks: lines.map((l, i) => p(l, { bold: i === 0 })) })),
    }],
  };
  const totals: Block = {
    type: 'table',
    columns: [350, 145],
    style: { borders: null, cellPadding: 2 },
    rows: d.totals.map(([label, value], i) => ({
      cells: [cell(label, 'right', { bold: i === d.totals.length - 1 }), cell(value, 'right', { bold: i === d.totals.length - 1 })],
    })),
  };
  return {
    version: 1,
    defaults: { run: { font, size: 10, color: '#000000' }, paragraph: { lineHeight: 1 } },
    metadata: { title: 'Invoice' },
    sections: [{
      page: { width: A4.width, height: A4.height, margins: { top: 50, right: MARGIN, bottom: 50, left: MARGIN }, footerDistance: 24 },
      footer: { default: [p(d.footer, { size: 8 }, { align: 'center' })] },
      body: [
        p(d.title, { bold: true, size: 24 }, { align: 'right' }),
        p(d.number, {}, { align: 'right' }),
        p(d.date, {}, { align: 'right', spaceAfter: 20 }),
        addresses,
        p('', {}, { spaceAfter: 10 }),
        { type: 'table', columns: COLUMNS, style: { cellPadding: 4, borders: { width: 0.5, color: '#c8c8c8' }, run: { size: 9 } }, rows: [head, ...rows] },
        p('', {}, { spaceAfter: 10 }),
        totals,
      ],
    }],
  };
}
