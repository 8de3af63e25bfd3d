import { formatPhone } from '../shared/phone.ts';
import type { CustomerField } from './fields.ts';

/** Display formatters of customers' values. Browser-safe. */

/** The stored value shown in full: phones formatted, everything else as stored. */
export function displayValue(field: CustomerField, value: string): string {
  return field === 'phone' ? formatPhone(value) : value;
}
