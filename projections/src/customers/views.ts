import type { CustomerField } from './fields.ts';

/** What the customers' routes answer with. Browser-safe. */

/**
 * A customer. `phone` is whole (XXX-XXX-XXXX) on single-record answers and masked
 * ('•••-•••-1234') in lists. `vehicles` is the stored 'a, b' text, `vehicleList` its items.
 */
export interface CustomerView {
  id: string;
  number: number;
  name: string;
  phone: string;
  email: string;
  address: string;
  vehicles: string;
  vehicleList: string[];
  pastAppointments: string;
  invoices: string;
  notes: string;
  createdAt: string;
  createdBy: string;
  lastModifiedAt: string;
  lastModifiedBy: string;
  /**
   * The customer's stream revision, also its ETag (`"3"`): send it back as If-Match to save
   * only over this version. The API always gives it; a client may do without (no check).
   */
  revision?: number;
}

export interface CustomerPage {
  items: CustomerView[];
  /** Opaque; pass back as `cursor` for the next page. Null on the last page. */
  nextCursor: string | null;
  /** How many customers match the search (all of them without one). */
  total: number;
}

/** The pipeline dialog's autocomplete. */
export interface CustomerSuggestion {
  id: string;
  number: number;
  name: string;
  /** Masked. */
  phone: string;
  vehicles: string[];
}

export interface CustomerFieldChange {
  field: CustomerField;
  /** Null on a creation: the field had no value before. */
  oldValue: string | null;
  newValue: string | null;
}

export interface CustomerHistoryEntry {
  /** The event's id. */
  id: string;
  action: 'created' | 'updated' | 'deleted';
  userDisplayName: string;
  /** ISO time; `GET …/customers/{id}?asOf=` with it shows the customer right after this change. */
  timestamp: string;
  changes: CustomerFieldChange[];
}

export interface CustomerDeletedView {
  deleted: true;
  jobsDeleted: number;
}
