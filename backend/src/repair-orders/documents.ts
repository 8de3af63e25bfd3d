import { createRequire } from 'node:module';
import type PDFKit from 'pdfkit';
import { formatDateTime } from '@crm/projections/contract';
import { balanceWords, formatMoney, type FrozenTotals, type LineView } from '@crm/projections/repair-orders';

/**
 * pdfkit, loaded with the first document (about 12 MB of heap with its font metrics): a
 * process that renders none, such as a projector that sends no invoice, never pays for it.
 * A static import would load it in every process, since the server bundle hoists imports.
 */
let pdfkit: typeof PDFKit | undefined;
const PDFDocument = (): typeof PDFKit => (pdfkit ??= createRequire(import.meta.url)('pdfkit') as typeof PDFKit);

/**
 * Estimates and invoices as PDF (pdfkit, its built-in Helvetica): the shop's header, the
 * customer and vehicle, the lines, the totals, the terms and footer, and on an answered
 * estimate who approved what and when.
 */

export interface DocumentShop {
  name: string;
  address: string;
  phone: string;
  email: string;
  terms: string;
  footer: string;
}

export interface DocumentInput {
  kind: 'Estimate' | 'Invoice';
  /** "Estimate v2", "Invoice #1001 (revision 2)" */
  title: string;
  shop: DocumentShop;
  jobNumber: string;
  customer: { name: string; phone: string; vehicle: string; vin: string };
  /** when it was sent or issued, in words in the shop's zone */
  dated: string;
  extra: string[];
  lines: LineView[];
  /** what the job is for (its part), the one item of a job priced by its quote alone */
  work: string;
  totals: FrozenTotals;
  /** an answered estimate with declined lines: its total without them, in cents */
  approvedTotal?: number;
  paid?: number;
  /** an answered estimate: who, when, from where */
  decision?: { name: string; decidedAt: string; address: string } | null;
  timeZone: string;
}

const money = (text: string) => formatMoney(Math.round(Number(text) * 100));

/** 'Dec 1, 2026, 2:00 PM CST': a document travels, so its times name their zone. */
export function dateInZone(iso: string, timeZone: string): string {
  return formatDateTime(iso, { timeZone, locale: 'en-US', zoneName: true });
}

function lineDetail(line: LineView): string {
  switch (line.kind) {
    case 'part':
      return `${line.partNumber ? `#${line.partNumber} · ` : ''}${line.quantity} × ${money(line.unitPrice)}`;
    case 'labor':
      return `${line.hours} h × ${money(line.rate)}/h${line.technician ? ` · ${line.technician}` : ''}`;
    case 'fee':
    case 'discount':
      return line.percent !== null ? `${line.percent} %` : '';
  }
}

const STATUS_WORDS = { approved: 'Approved', declined: 'Declined', pending: '' } as const;

export async function renderDocument(input: DocumentInput): Promise<Buffer> {
  const doc = new (PDFDocument())({
    size: 'LETTER',
    margin: 50,
    info: { Title: `${input.title} — ${input.shop.name}`, Author: input.shop.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  // Header: the shop on the left, the document on the right.
  const top = doc.y;
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(input.shop.name, left, top, { width: width * 0.6 });
  doc.font('Helvetica').fontSize(9).fillColor('#444');
  for (const text of [input.shop.address, input.shop.phone, input.shop.email].filter(Boolean)) doc.text(text, { width: width * 0.6 });
  const afterShop = doc.y;
  doc
    .fillColor('#000')
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(input.title, left + width * 0.6, top, { width: width * 0.4, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(`Job #${input.jobNumber}`, { width: width * 0.4, align: 'right' });
  doc.text(input.dated, { width: width * 0.4, align: 'right' });
  for (const text of input.extra) doc.text(text, { width: width * 0.4, align: 'right' });
  doc.y = Math.max(afterShop, doc.y) + 16;

  // Customer and vehicle.
  doc.x = left;
  doc.font('Helvetica-Bold').fontSize(10).text('Customer');
  doc
    .font('Helvetica')
    .fontSize(10)
    .text([input.customer.name, input.customer.phone].filter(Boolean).join(' · ') || '—');
  if (input.customer.vehicle || input.customer.vin)
    doc.text(`Vehicle: ${[input.customer.vehicle, input.customer.vin ? `VIN ${input.customer.vin}` : ''].filter(Boolean).join(' · ')}`);
  doc.moveDown();

  // Lines.
  const columns = { description: left, detail: left + width * 0.45, status: left + width * 0.72, amount: left + width * 0.82 };
  const header = doc.y;
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text('Description', columns.description, header);
  doc.text('Detail', columns.detail, header);
  doc.text('', columns.status, header);
  doc.text('Amount', columns.amount, header, { width: width * 0.18, align: 'right' });
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .strokeColor('#999')
    .stroke();
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(9);
  /** One row of the items table: its description, detail, status and amount side by side. */
  const itemRow = (description: string, detail: string, status: string, amount: string) => {
    if (doc.y > doc.page.height - 160) doc.addPage();
    const y = doc.y;
    doc.text(description, columns.description, y, { width: width * 0.43 });
    const bottom = doc.y;
    doc.text(detail, columns.detail, y, { width: width * 0.26 });
    doc.text(status, columns.status, y, { width: width * 0.1 });
    doc.text(amount, columns.amount, y, { width: width * 0.18, align: 'right' });
    doc.y = Math.max(bottom, doc.y) + 3;
  };
  // A job priced by its quote alone (no lines): its total is the quote, so that is the one item,
  // not an empty table over a breakdown of zeros that does not add up to the total.
  const quoteOnly = input.lines.length === 0;
  if (quoteOnly) itemRow(input.work || 'Work as quoted', 'Quoted price', '', formatMoney(input.totals.total));
  for (const line of input.lines) {
    const declined = line.status === 'declined';
    doc.fillColor(declined ? '#888' : '#000');
    const label = `${line.description || line.kind}${line.kind === 'part' || line.kind === 'labor' ? '' : ` (${line.kind})`}${line.taxable || line.kind === 'discount' ? '' : ' · no tax'}`;
    itemRow(label, lineDetail(line), STATUS_WORDS[line.status], declined ? `(${money(line.total)})` : money(line.total));
  }
  doc.fillColor('#000');
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .strokeColor('#999')
    .stroke();
  doc.moveDown(0.5);

  // Totals.
  type TotalRow = [string, number, boolean?];
  const breakdown: TotalRow[] = [
    ['Parts', input.totals.parts],
    ['Labor', input.totals.labor],
    ['Fees', input.totals.fees],
    ['Discounts', -input.totals.discounts],
    ['Tax', input.totals.tax],
  ];
  const rows: TotalRow[] = [...(quoteOnly ? [] : breakdown), ['Total', input.totals.total, true]];
  if (input.approvedTotal !== undefined) rows.push(['Approved total', input.approvedTotal, true]);
  if (input.paid !== undefined) {
    rows.push(['Paid', input.paid]);
    // Paid more than the invoice comes to: the customer is owed the difference, not a negative balance.
    const balance = input.totals.total - input.paid;
    rows.push([balanceWords(balance).label, Math.abs(balance), true]);
  }
  for (const [label, cents, bold] of rows) {
    if (!bold && cents === 0 && label !== 'Tax' && label !== 'Paid') continue;
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10);
    doc.text(label, left + width * 0.55, y, { width: width * 0.25 });
    doc.text(formatMoney(cents), left + width * 0.8, y, { width: width * 0.2, align: 'right' });
  }
  doc.moveDown();
  doc.x = left;

  if (input.decision) {
    const approved = input.lines.filter((line) => line.status === 'approved').map((line) => line.description || line.kind);
    const declined = input.lines.filter((line) => line.status === 'declined').map((line) => line.description || line.kind);
    doc.font('Helvetica-Bold').fontSize(10).text('Customer decision', left, doc.y, { width });
    doc.font('Helvetica').fontSize(9);
    doc.text(
      `${input.decision.name} answered on ${dateInZone(input.decision.decidedAt, input.timeZone)} (from ${input.decision.address}).`,
      { width },
    );
    if (approved.length) doc.text(`Approved: ${approved.join(', ')}`, { width });
    if (declined.length) doc.text(`Declined: ${declined.join(', ')}`, { width });
    doc.moveDown();
  }
  if (input.shop.terms) {
    doc.font('Helvetica-Bold').fontSize(10).text('Terms', left, doc.y, { width });
    doc.font('Helvetica').fontSize(8).text(input.shop.terms, { width });
    doc.moveDown();
  }
  if (input.shop.footer)
    doc.font('Helvetica').fontSize(8).fillColor('#444').text(input.shop.footer, left, doc.y, { width, align: 'center' });
  doc.end();
  return await done;
}
