import { jobReference, type RepairOrderHistoryAction } from '../pipeline/index.ts';
import type { ActivityDescription } from '../shared/timeline.ts';
import type { RepairOrderJobEvent, ShopSettingsEvent } from './events.ts';
import { formatMoney, moneyText, scaledShortText } from './money.ts';
import type { RepairLine } from './totals.ts';

/**
 * How the job's history and the instance timeline word repair-order events: an action
 * per event and, per line, its fields old → new (amounts as decimal strings). Pure.
 */

export function repairOrderHistoryAction(event: RepairOrderJobEvent): RepairOrderHistoryAction {
  switch (event.type) {
    case 'LineAdded':
      return 'line-added';
    case 'LineChanged':
      return 'line-changed';
    case 'LineRemoved':
      return 'line-removed';
    case 'LinesReordered':
      return 'lines-reordered';
    case 'EstimateSent':
      return 'estimate-sent';
    case 'EstimateRevoked':
      return 'estimate-revoked';
    case 'EstimateApproved':
      return 'estimate-approved';
    case 'EstimateDeclined':
      return 'estimate-declined';
    case 'InvoiceIssued':
      return 'invoice-issued';
    case 'PaymentRecorded':
      return 'payment-recorded';
    case 'RefundRecorded':
      return 'refund-recorded';
    default:
      return assertNever(event);
  }
}

type Value = string | number | null;
export interface RepairOrderChange {
  field: string;
  oldValue: Value;
  newValue: Value;
}

/** A line field's value in the API's words. */
export function lineFieldText(field: string, value: string | number | boolean | null): Value {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value;
  switch (field) {
    case 'quantity':
      return scaledShortText(value, 3);
    case 'hours':
      return scaledShortText(value, 2);
    case 'percent':
      return `${scaledShortText(value, 3)} %`;
    case 'unitCost':
    case 'unitPrice':
    case 'rate':
    case 'amount':
      return moneyText(value);
    default:
      return value;
  }
}

/** 'Brake pads (part)': how words name a line. */
export function lineLabel(line: Pick<RepairLine, 'kind' | 'description'>): string {
  return line.description ? `${line.description} (${line.kind})` : `a ${line.kind} line`;
}

const LINE_SHOWN_FIELDS: Record<RepairLine['kind'], (keyof RepairLine)[]> = {
  part: ['description', 'partNumber', 'quantity', 'unitPrice', 'taxable'],
  labor: ['description', 'hours', 'rate', 'technician', 'taxable'],
  fee: ['description', 'amount', 'percent', 'taxable'],
  discount: ['description', 'amount', 'percent', 'appliesTo'],
};

function lineFields(line: RepairLine, side: 'old' | 'new'): RepairOrderChange[] {
  const label = lineLabel(line);
  return LINE_SHOWN_FIELDS[line.kind]
    .filter((field) => line[field] !== null && line[field] !== '')
    .map((field) => {
      const value = lineFieldText(field, line[field] as string | number | boolean | null);
      return { field: `${label}: ${field}`, oldValue: side === 'old' ? value : null, newValue: side === 'new' ? value : null };
    });
}

/** What an event changed, in history rows' terms. */
export function repairOrderEventChanges(event: RepairOrderJobEvent): RepairOrderChange[] {
  switch (event.type) {
    case 'LineAdded':
      return lineFields(event.data.line, 'new');
    case 'LineRemoved':
      return lineFields(event.data.line, 'old');
    case 'LineChanged': {
      const label = lineLabel(event.data);
      return event.data.changes.map((change) => ({
        field: `${label}: ${change.field}`,
        oldValue: lineFieldText(change.field, change.oldValue),
        newValue: lineFieldText(change.field, change.newValue),
      }));
    }
    case 'LinesReordered':
      return [{ field: 'line order', oldValue: event.data.from.length, newValue: event.data.to.length }];
    case 'EstimateSent':
      return [
        { field: 'estimate', oldValue: null, newValue: `version ${event.data.version}, ${moneyText(event.data.totals.total)}` },
        { field: 'link expires', oldValue: null, newValue: event.data.expiresAt },
      ];
    case 'EstimateRevoked':
      return [{ field: 'estimate', oldValue: `version ${event.data.version}`, newValue: 'revoked' }];
    case 'EstimateApproved':
    case 'EstimateDeclined':
      return [
        { field: 'approved by', oldValue: null, newValue: event.data.customerName },
        { field: 'lines approved', oldValue: null, newValue: event.data.approvedLineIds.length },
        { field: 'lines declined', oldValue: null, newValue: event.data.declinedLineIds.length },
        { field: 'from address', oldValue: null, newValue: event.data.address },
      ];
    case 'InvoiceIssued':
      return [
        { field: 'invoice', oldValue: null, newValue: `#${event.data.invoiceNumber} revision ${event.data.revision}` },
        { field: 'invoice total', oldValue: null, newValue: moneyText(event.data.totals.total) },
      ];
    case 'PaymentRecorded':
      return [
        { field: 'payment', oldValue: null, newValue: moneyText(event.data.amount) },
        { field: 'method', oldValue: null, newValue: event.data.method },
        ...(event.data.reference ? [{ field: 'reference', oldValue: null, newValue: event.data.reference }] : []),
      ];
    case 'RefundRecorded':
      return [
        { field: 'refund', oldValue: null, newValue: moneyText(-event.data.amount) },
        { field: 'method', oldValue: null, newValue: event.data.method },
        { field: 'reason', oldValue: null, newValue: event.data.reason },
      ];
    default:
      return assertNever(event);
  }
}

/** The instance timeline's words for a repair-order event. */
export function describeRepairOrderEvent(event: RepairOrderJobEvent | ShopSettingsEvent): ActivityDescription {
  if (event.type === 'ShopSettingsUpdated')
    return {
      entityType: 'instance',
      entityId: event.data.instanceId,
      summary: `Changed the shop's settings: ${event.data.changes.map((c) => fieldWords(c.field)).join(', ')}`,
      changes: event.data.changes,
    };
  const base = { entityType: 'job', entityId: event.data.jobId, changes: repairOrderEventChanges(event) };
  const job = jobReference(event.data);
  switch (event.type) {
    case 'LineAdded':
      return { ...base, summary: `Added ${lineLabel(event.data.line)} to ${job}` };
    case 'LineChanged':
      return { ...base, summary: `Changed ${lineLabel(event.data)} on ${job}` };
    case 'LineRemoved':
      return { ...base, summary: `Removed ${lineLabel(event.data.line)} from ${job}` };
    case 'LinesReordered':
      return { ...base, summary: `Reordered the lines of ${job}` };
    case 'EstimateSent':
      return { ...base, summary: `Sent estimate version ${event.data.version} of ${job} (${formatMoney(event.data.totals.total)})` };
    case 'EstimateRevoked':
      return { ...base, summary: `Revoked the estimate link of ${job}` };
    case 'EstimateApproved':
      return { ...base, summary: `${event.data.customerName} approved the estimate of ${job}` };
    case 'EstimateDeclined':
      return { ...base, summary: `${event.data.customerName} declined the estimate of ${job}` };
    case 'InvoiceIssued':
      return {
        ...base,
        summary: `Issued invoice #${event.data.invoiceNumber}${event.data.revision > 1 ? ` (revision ${event.data.revision})` : ''} for ${job}: ${formatMoney(event.data.totals.total)}`,
      };
    case 'PaymentRecorded':
      return { ...base, summary: `Recorded a ${event.data.method} payment of ${formatMoney(event.data.amount)} for ${job}` };
    case 'RefundRecorded':
      return { ...base, summary: `Refunded ${formatMoney(event.data.amount)} on ${job}: ${event.data.reason}` };
    default:
      return assertNever(event);
  }
}

/** A settings field in words for a sentence: 'partsTaxRate' → 'parts tax rate'. */
function fieldWords(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function assertNever(value: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(value)}`);
}
