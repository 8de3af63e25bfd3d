import { z } from 'zod';
import { textInput } from '../shared/schemas.ts';
import { LINE_STATUSES, REPAIR_ORDER_LIMITS } from './limits.ts';
import { decimalDocument, decimalInput, lineId, moneyDocument, moneyInput, percentInput, positiveDecimalInput } from './schema-pieces.ts';
import { LINE_KINDS, type LineKind } from './totals.ts';

/** A job's lines: what a new line and a change to one may hold (per kind), their order, and a line as shown. */

const lineFields = {
  description: textInput('Description', REPAIR_ORDER_LIMITS.description).optional(),
  /** part */
  partNumber: textInput('Part number', REPAIR_ORDER_LIMITS.partNumber).optional(),
  /** part: units, more than 0, default 1 ("1.5") */
  quantity: positiveDecimalInput('Quantity', 3, REPAIR_ORDER_LIMITS.quantityMax).optional(),
  /** part: what the shop paid for one, dollars (kept off customer documents) */
  unitCost: moneyInput('Unit cost').optional(),
  /** part: price of one, dollars */
  unitPrice: moneyInput('Unit price').optional(),
  /** labor: hours ("1.25") */
  hours: decimalInput('Hours', 2, REPAIR_ORDER_LIMITS.hoursMax).optional(),
  /** labor: dollars per hour; left out, null or '': the shop's labor rate */
  rate: moneyInput('Rate').optional(),
  /** labor */
  technician: textInput('Technician', REPAIR_ORDER_LIMITS.technician).optional(),
  /** fee or discount: a fixed amount, dollars */
  amount: moneyInput('Amount').optional(),
  /** fee or discount: a percentage ("10"); a fee's base is the parts and labor, a job discount's everything before tax, a line discount's its line */
  percent: percentInput('Percent').optional(),
  /** discount: the id of the line it reduces; left out or null: the whole job */
  appliesTo: lineId.nullable().optional(),
  /** part, labor, fee: taxed (default true for parts and fees, the shop's labor tax rate decides for labor: default true) */
  taxable: z.boolean({ error: 'taxable must be true or false' }).optional(),
};

/** Which fields each kind takes; a field of another kind must be left out, null or ''. */
export const LINE_KIND_FIELDS: Record<LineKind, readonly (keyof typeof lineFields)[]> = {
  part: ['description', 'partNumber', 'quantity', 'unitCost', 'unitPrice', 'taxable'],
  labor: ['description', 'hours', 'rate', 'technician', 'taxable'],
  fee: ['description', 'amount', 'percent', 'taxable'],
  discount: ['description', 'amount', 'percent', 'appliesTo'],
};

export type LineChanges = { [K in keyof typeof lineFields]?: z.output<(typeof lineFields)[K]> };

/** A line's fields that this kind does not take but were given a value. */
export function misplacedLineFields(kind: LineKind, changes: LineChanges): string[] {
  return (Object.keys(changes) as (keyof LineChanges)[]).filter((field) => {
    const value = changes[field];
    return !LINE_KIND_FIELDS[kind].includes(field) && value !== undefined && value !== null && value !== '';
  });
}

/** Alternatives without their blank forms ('' and null): a value that must be there. */
function filled(document: { anyOf: Array<Record<string, unknown>> }) {
  return { anyOf: document.anyOf.filter((alternative) => !('const' in alternative) && alternative.type !== 'null') };
}

/**
 * What the API document says a new line is: one shape per kind (and for fees and discounts,
 * one with an amount and one with a percent), each naming only its kind's fields and
 * requiring what that kind needs. The server's checks say the same in code (above).
 */
function lineKindsDocument() {
  const text = (max: number) => ({ type: ['string', 'null'], maxLength: max });
  const money = moneyDocument({});
  const fields: Record<keyof typeof lineFields, Record<string, unknown>> = {
    description: text(REPAIR_ORDER_LIMITS.description),
    partNumber: text(REPAIR_ORDER_LIMITS.partNumber),
    quantity: decimalDocument(3, REPAIR_ORDER_LIMITS.quantityMax, { positive: true }),
    unitCost: money,
    unitPrice: money,
    hours: decimalDocument(2, REPAIR_ORDER_LIMITS.hoursMax),
    rate: money,
    technician: text(REPAIR_ORDER_LIMITS.technician),
    amount: money,
    percent: decimalDocument(3, 100),
    appliesTo: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
    taxable: { type: 'boolean' },
  };
  const shape = (kind: LineKind, needs: Partial<Record<keyof typeof lineFields, Record<string, unknown>>>, leaveOut: string[] = []) => ({
    type: 'object',
    properties: {
      kind: { const: kind },
      ...Object.fromEntries(LINE_KIND_FIELDS[kind].filter((field) => !leaveOut.includes(field)).map((field) => [field, fields[field]])),
      ...needs,
      position: { type: 'integer', minimum: 0, maximum: REPAIR_ORDER_LIMITS.linesMax },
    },
    required: ['kind', ...Object.keys(needs)],
    additionalProperties: false,
  });
  return {
    type: undefined,
    properties: undefined,
    required: undefined,
    additionalProperties: undefined,
    oneOf: [
      shape('part', { unitPrice: filled(money) }),
      shape('labor', { hours: filled(fields.hours as ReturnType<typeof decimalDocument>) }),
      shape('fee', { amount: filled(money) }, ['percent']),
      shape('fee', { percent: filled(fields.percent as ReturnType<typeof decimalDocument>) }, ['amount']),
      shape('discount', { amount: filled(money) }, ['percent']),
      shape('discount', { percent: filled(fields.percent as ReturnType<typeof decimalDocument>) }, ['amount']),
    ],
  };
}

/** A new line's place among the job's lines; the job's own line count bounds it further (checked against the stored job). */
const POSITION_RULE = `position must be a whole number from 0 (first) to ${REPAIR_ORDER_LIMITS.linesMax}, and at most the job's number of lines (that puts the line last)`;

/** A new line (`POST …/pipeline/{id}/lines`): its kind and the fields that fit it; `position` (0-based) places it, default last. */
export const lineInput = z
  .strictObject({
    kind: z.enum(LINE_KINDS, { error: `kind must be one of: ${LINE_KINDS.join(', ')}` }),
    ...lineFields,
    position: z
      .number({ error: POSITION_RULE })
      .int(POSITION_RULE)
      .min(0, POSITION_RULE)
      .max(REPAIR_ORDER_LIMITS.linesMax, POSITION_RULE)
      .optional(),
  })
  .superRefine((value, ctx) => {
    const { kind, position: _position, ...changes } = value;
    for (const field of misplacedLineFields(kind, changes))
      ctx.addIssue({ code: 'custom', message: `${field} does not apply to a ${kind} line`, path: [field] });
    if (kind === 'part' && (value.unitPrice === undefined || value.unitPrice === null))
      ctx.addIssue({ code: 'custom', message: 'A part line needs a unit price', path: ['unitPrice'] });
    if (kind === 'labor' && (value.hours === undefined || value.hours === null))
      ctx.addIssue({ code: 'custom', message: 'A labor line needs its hours', path: ['hours'] });
    if (kind === 'fee' || kind === 'discount') {
      const hasAmount = value.amount !== undefined && value.amount !== null;
      const hasPercent = value.percent !== undefined && value.percent !== null;
      if (hasAmount === hasPercent)
        ctx.addIssue({ code: 'custom', message: `A ${kind} line needs either an amount or a percent`, path: ['amount'] });
    }
  })
  .meta(lineKindsDocument());
export type LineInput = z.input<typeof lineInput>;
export type NewLine = z.output<typeof lineInput>;

/** A change to a line (`PUT …/lines/{lineId}`): the fields sent change, the rest stay; the kind stays. */
export const lineChangesInput = z.strictObject(lineFields);
export type LineChangesInput = z.input<typeof lineChangesInput>;

/** The job's lines in a new order: every line id, once each. */
export const lineOrderInput = z.strictObject({
  lineIds: z.array(lineId, { error: 'lineIds must be a list of line ids' }).max(REPAIR_ORDER_LIMITS.linesMax),
});

export const lineViewSchema = z.object({
  id: z.string(),
  kind: z.enum(LINE_KINDS),
  description: z.string(),
  partNumber: z.string(),
  /** units, shortest form ("1.5") */
  quantity: z.string(),
  unitCost: z.string().nullable(),
  unitPrice: z.string(),
  /** "1.25" */
  hours: z.string(),
  /** dollars per hour */
  rate: z.string(),
  /** the rate is the shop's labor rate (as it was when the line was written) */
  shopRate: z.boolean(),
  technician: z.string(),
  amount: z.string().nullable(),
  /** "10" for 10 % */
  percent: z.string().nullable(),
  appliesTo: z.string().nullable(),
  taxable: z.boolean(),
  /** the line's amount, rounded to the cent (discounts negative); a declined line shows what it would have been */
  total: z.string(),
  status: z.enum(LINE_STATUSES),
});
export type LineView = z.infer<typeof lineViewSchema>;
