import { CUSTOMER_TEXTS } from '../constants/customer-texts';

/** The name to show: 'Unnamed Customer' for a customer saved without one. */
export function customerDisplayName(customer: { name: string }): string {
  return customer.name.trim() || CUSTOMER_TEXTS.unnamed;
}
