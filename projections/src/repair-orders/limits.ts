/** The repair orders' limits (lengths, bounds) and vocabularies (payment methods, line and estimate statuses). */

export const REPAIR_ORDER_LIMITS = {
  description: 500,
  partNumber: 60,
  technician: 100,
  reference: 100,
  reason: 500,
  decisionName: 200,
  shopName: 200,
  address: 500,
  phone: 40,
  email: 254,
  documentFooter: 2000,
  terms: 5000,
  /** quantity, in units (3 decimals) */
  quantityMax: 99_999,
  /** hours on one labor line (2 decimals) */
  hoursMax: 9_999,
  /** lines on one job */
  linesMax: 200,
  estimateLinkDaysMax: 365,
  /** days in one takings report */
  reportDaysMax: 366,
} as const;

export const PAYMENT_METHODS = ['cash', 'card', 'check', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** A payment method in words, on every screen and in every history that names one. */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = { cash: 'Cash', card: 'Card', check: 'Check', other: 'Other' };

/** A line on an estimate: not decided yet, or as the customer decided on the last estimate they answered. */
export const LINE_STATUSES = ['pending', 'approved', 'declined'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

export const ESTIMATE_STATUSES = ['sent', 'approved', 'declined', 'revoked', 'expired', 'superseded'] as const;
export type EstimateStatus = (typeof ESTIMATE_STATUSES)[number];

export const DEFAULT_ESTIMATE_LINK_DAYS = 14;
