import { formatPhone, phoneDigits } from '@crm/projections/shared';

/**
 * A phone as lists and cards show it: 3-3-4 when it is exactly ten digits, otherwise as the
 * server gave it (a masked '•••-•••-1234' stays masked).
 */
export function displayPhone(value: string): string {
  if (/^[\d\s().+-]*$/.test(value) && phoneDigits(value).length === 10) return formatPhone(value);
  return value;
}
