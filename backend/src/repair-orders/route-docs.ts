import { z } from 'zod';
import {
  estimateSendInput,
  estimateSentSchema,
  invoiceIssueInput,
  jobDetailSchema,
  lineChangesInput,
  lineInput,
  lineOrderInput,
  paymentInput,
  shopSettingsInput,
  shopSettingsSchema,
  takingsQuery,
  takingsReportSchema,
} from '@crm/projections/contract';
import type { RouteDoc } from '../http/router.ts';

/** The repair order's routes as the OpenAPI document describes them. */

const TAG = 'repair-orders';

/** A line's id in the path: what the document says of it (any other text is a line not found). */
const lineParams = z.object({ lineId: z.uuid() });

export const REPAIR_ORDER_DOCS = {
  settings: { summary: "The shop's settings for documents and money", tag: TAG, response: shopSettingsSchema },
  saveSettings: {
    answers: { 409: 'The settings changed since the If-Match revision' },
    summary: "Change the shop's settings: the fields sent (instance admins; If-Match optional: the settings' revision)",
    tag: TAG,
    body: shopSettingsInput,
    response: shopSettingsSchema,
  },
  addLine: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: 'Add a line to a job (If-Match: the job revision)',
    tag: TAG,
    body: lineInput,
    response: jobDetailSchema,
    status: 201,
  },
  changeLine: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: "Change a line's fields (If-Match)",
    tag: TAG,
    params: lineParams,
    body: lineChangesInput,
    response: jobDetailSchema,
  },
  removeLine: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: 'Remove a line, with the discounts on it (If-Match)',
    tag: TAG,
    params: lineParams,
    response: jobDetailSchema,
  },
  reorder: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: "Put the job's lines in a new order (If-Match)",
    tag: TAG,
    body: lineOrderInput,
    response: jobDetailSchema,
    status: 200,
  },
  send: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: 'Send the estimate as the lines are now: a new version with a link that expires (the previous link stops working)',
    tag: TAG,
    body: estimateSendInput,
    response: estimateSentSchema,
    status: 201,
  },
  revoke: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: "Revoke the estimate's open link",
    tag: TAG,
    response: jobDetailSchema,
    status: 200,
  },
  invoice: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: 'Issue the invoice (the next invoice number) or a new revision of it, from the lines not declined; moves the job to Invoiced',
    tag: TAG,
    body: invoiceIssueInput,
    response: jobDetailSchema,
    status: 201,
  },
  payment: {
    answers: { 409: 'The job changed since the If-Match revision, is canceled, or the command does not fit its state' },
    summary: 'Record a payment (positive amount) or a refund (negative, with a reason); a zero balance moves the job to Paid',
    tag: TAG,
    body: paymentInput,
    response: jobDetailSchema,
    status: 201,
  },
  takings: {
    summary: "The takings of a day or range in the shop's time zone",
    tag: TAG,
    query: takingsQuery,
    response: takingsReportSchema,
  },
  takingsCsv: { summary: 'The takings report as CSV', tag: TAG, query: takingsQuery, produces: 'text/csv' },
} satisfies Record<string, RouteDoc>;
