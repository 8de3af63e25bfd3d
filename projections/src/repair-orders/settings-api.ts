import { z } from 'zod';
import { emailDocument, isEmailAddress } from '../shared/email.ts';
import { blankOr, textInput } from '../shared/schemas.ts';
import { REPAIR_ORDER_LIMITS } from './limits.ts';
import { moneyInput, percentInput } from './schema-pieces.ts';

/**
 * A change to the shop's settings: a field left out stays as it is; null or '' clears a
 * text (rates cleared are 0). Rates are percentages ("8.25"), the labor rate dollars per hour.
 */
export const shopSettingsInput = z.strictObject({
  shopName: textInput('Shop name', REPAIR_ORDER_LIMITS.shopName).optional(),
  address: textInput('Address', REPAIR_ORDER_LIMITS.address).optional(),
  phone: textInput('Phone', REPAIR_ORDER_LIMITS.phone).optional(),
  email: textInput('Email', REPAIR_ORDER_LIMITS.email)
    .refine((value) => value === '' || isEmailAddress(value), 'Email must be an email address')
    .meta(blankOr(emailDocument(REPAIR_ORDER_LIMITS.email)))
    .optional(),
  laborRate: moneyInput('Labor rate')
    .transform((value) => value ?? 0)
    .optional(),
  partsTaxRate: percentInput('Parts tax rate')
    .transform((value) => value ?? 0)
    .optional(),
  laborTaxRate: percentInput('Labor tax rate')
    .transform((value) => value ?? 0)
    .optional(),
  documentFooter: textInput('Document footer', REPAIR_ORDER_LIMITS.documentFooter).optional(),
  terms: textInput('Terms', REPAIR_ORDER_LIMITS.terms).optional(),
  estimateLinkDays: z
    .number({ error: `estimateLinkDays must be a whole number of days from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}` })
    .int(`estimateLinkDays must be a whole number of days from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}`)
    .min(1, `estimateLinkDays must be a whole number of days from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}`)
    .max(REPAIR_ORDER_LIMITS.estimateLinkDaysMax, `estimateLinkDays must be at most ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}`)
    .optional(),
});
export type ShopSettingsInput = z.input<typeof shopSettingsInput>;
export type ShopSettingsChanges = z.output<typeof shopSettingsInput>;

export const shopSettingsSchema = z.object({
  shopName: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  /** dollars per hour, "125.00" */
  laborRate: z.string(),
  /** percent, "8.25" */
  partsTaxRate: z.string(),
  laborTaxRate: z.string(),
  documentFooter: z.string(),
  terms: z.string(),
  estimateLinkDays: z.number().int().positive(),
  /** The settings stream's revision (ETag); send it back as If-Match to save only over this version. */
  revision: z.number().int().nonnegative(),
  updatedAt: z.string().nullable(),
});
export type ShopSettingsView = z.infer<typeof shopSettingsSchema>;
