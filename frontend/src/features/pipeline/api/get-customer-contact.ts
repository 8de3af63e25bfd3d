import { parseList } from '@crm/projections/customers';
import { phoneDigits } from '@crm/projections/shared';
import { z } from 'zod';
import { apiFetch } from '@/lib/api-client';

/** What choosing a customer fills in: the whole phone (suggestions are masked) and the vehicles. */
const contactSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    name: z.string().nullish(),
    phone: z.string().nullish(),
    vehicles: z.union([z.array(z.string()), z.string()]).nullish(),
    vehicleList: z.array(z.string()).nullish(),
  })
  .transform((customer) => ({
    id: customer.id,
    name: customer.name ?? '',
    phoneDigits: phoneDigits(customer.phone ?? ''),
    vehicles: customer.vehicleList ?? parseList(customer.vehicles ?? []),
  }));

export type CustomerContact = z.output<typeof contactSchema>;

/** One customer read on its own (its phone whole). */
export async function getCustomerContact(instance: string, customerId: string): Promise<CustomerContact> {
  return contactSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/customers/${encodeURIComponent(customerId)}`));
}
