import type { EventData } from '../events.ts';
import type { FieldChange } from '../shared/timeline.ts';
import { CUSTOMER_FIELDS, type CustomerFields } from './fields.ts';

/** How the instance timeline (the audit slice's activity) words customers' events. */

/** '#12 Jane Doe', or '#12' for a customer without a name. */
export function customerLabel(data: { number: number; name: string }): string {
  return data.name ? `#${data.number} ${data.name}` : `#${data.number}`;
}

/** Field changes for the instance timeline (which masks the phone). A creation lists the fields it filled. */
export function customerChangesForTimeline(source: CustomerFields | EventData<'CustomerUpdated'>['changes']): FieldChange[] {
  return Array.isArray(source)
    ? source.map(({ field, oldValue, newValue }) => ({ field, oldValue, newValue }))
    : CUSTOMER_FIELDS.filter((field) => source[field] !== '').map((field) => ({ field, oldValue: null, newValue: source[field] }));
}
