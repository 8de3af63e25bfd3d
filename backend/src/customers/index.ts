/**
 * The customers slice's public module: what the other slices may use of it. Anything outside
 * backend/src/customers imports the slice through this file only (ESLint).
 */
export { customerDecider, customerStream, type CustomerMerge, type CustomerState } from './customer-decider.ts';
export { createCustomer, type NewCustomerInput, type CustomerVehicleRecords, type VehicleRestoration } from './customer-service.ts';
export { customersWithPhone, findCustomer, type CustomerRecordPart } from './customer-queries.ts';
export { CUSTOMER_FAMILIES } from './routes.ts';
export { restoreDeletedCustomer, revertCustomerChange } from './customer-records.ts';
export { getCustomer } from './customer-service.ts';
export { customerStanding } from './customer-standing.ts';
export { registerCustomerRoutes } from './routes.ts';
// The bench's bare routes run the customer list's and the autocomplete's very statements.
export { customerListBody, customerListStatement, customerSuggestStatement, type CustomerListRow } from './customer-queries.ts';
