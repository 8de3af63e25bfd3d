/** The service request screens' words. */
export const SERVICE_REQUEST_TEXTS = {
  formTitle: 'Service Request Form',
  formSubtitle: "Request a service for a customer's vehicle.",
  successTitle: 'Success!',
  successBody: 'The service request was submitted.',
  submitAnother: 'Submit Another',
  backToQuoteForm: 'Back to Quote Form',
  viewAll: 'View All Requests',
  listTitle: 'Service Requests',
  listSubtitle: 'All service requests submitted for this shop.',
  empty: 'No service requests have been submitted yet.',
  noMatch: 'No matching records found. Try a different search term.',
  networkError: 'Network error occurred',
  somethingWentWrong: 'Something went wrong',
  publicTitle: 'Request a Service',
  publicSuccess: 'Thank you! Your request was sent. The shop will contact you by email.',
  publicOff: 'This shop does not take service requests online. Please call the shop.',
  requiredInBrowser: 'Customer name, contact email and vehicle type are required',
} as const;

/** The search box waits this long after the last key before asking the server. */
export const SEARCH_DEBOUNCE_MS = 250;
