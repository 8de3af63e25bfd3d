import { PHONE_MAX_DIGITS, phoneDigits } from '@crm/projections/shared';

/**
 * The phone field as it is typed (spec §5): digits only, at most 10, grouped 3-3-4 with
 * dashes as they come ('555', '555-12', '555-123-4', '555-123-4567').
 */
export function formatPhoneAsTyped(value: string): string {
  const digits = phoneDigits(value).slice(0, PHONE_MAX_DIGITS);
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}
