import { customerViewSchema } from '@crm/projections/contract';
import { phoneDigits } from '@crm/projections/shared';
import { apiFetch } from '@/lib/api-client';
import { customersApiPath } from './resources';

/** What choosing a customer fills in: the whole phone (suggestions are masked) and the vehicles. */
export interface CustomerContact {
  id: string;
  name: string;
  phoneDigits: string;
  vehicles: string[];
}

/** One customer read on its own (its phone whole). */
export async function getCustomerContact(instance: string, customerId: string): Promise<CustomerContact> {
  const customer = customerViewSchema.parse(await apiFetch(customersApiPath(instance, customerId)));
  return { id: customer.id, name: customer.name, phoneDigits: phoneDigits(customer.phone), vehicles: customer.vehicleList };
}
