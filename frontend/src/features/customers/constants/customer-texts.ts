import type { CustomerField } from '@crm/projections/customers';

/** Field names in words (form labels, history rows). */
export const CUSTOMER_FIELD_LABELS: Record<CustomerField, string> = {
  name: 'Name',
  phone: 'Phone',
  email: 'Email',
  address: 'Address',
  vehicles: 'Vehicles',
  pastAppointments: 'Past Appointments',
  invoices: 'Invoices',
  notes: 'Notes',
};

/** The product's fixed customer-screen messages, word for word. */
export const CUSTOMER_TEXTS = {
  unnamed: 'Unnamed Customer',
  empty: 'No customers yet.',
  emptyHint: "Click 'Add Customer' to get started.",
  noMatch: 'No customers match your search.',
  created: 'Customer created',
  updated: 'Customer updated',
  deleted: 'Customer deleted',
  deletedDescription: 'Customer and all associated jobs and vehicles have been deleted. An admin can restore them from Deleted records.',
  createFailed: 'Failed to create customer',
  updateFailed: 'Failed to update customer',
  deleteFailed: 'Failed to delete customer',
  unsavedChanges: 'You have unsaved changes. Are you sure you want to close without saving?',
} as const;

/** Cards show this many before a "+N more" note. */
export const CARD_APPOINTMENTS_SHOWN = 2;
export const CARD_INVOICES_SHOWN = 3;

/** How long the search waits for typing to pause before asking the server. */
export const SEARCH_DEBOUNCE_MS = 250;
