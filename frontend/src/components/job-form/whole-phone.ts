import { formatPhoneAsTyped } from '@crm/projections/shared';
import { getCustomerContact } from '@/lib/api/customer-contact';
import { reportFailure } from '@/lib/report-failure';

/**
 * After a customer is chosen in a job form: suggestions carry the phone masked, the customer
 * read on its own has it whole. The whole phone goes into the form once read, if that customer
 * is still the one chosen.
 */
export function fillWholePhone<Form extends { customerId: string | null; phone: string }>(
  instance: string,
  customerId: string,
  setForm: (update: (current: Form) => Form) => void,
): void {
  getCustomerContact(instance, customerId)
    .then((contact) => {
      if (!contact.phoneDigits) return;
      setForm((current) => (current.customerId === contact.id ? { ...current, phone: formatPhoneAsTyped(contact.phoneDigits) } : current));
    })
    .catch((failure: unknown) => reportFailure('Reading the chosen customer failed', failure));
}
