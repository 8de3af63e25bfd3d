/**
 * The customer-merge slice's public module: merging two customers moves records of three
 * slices (customers, jobs, vehicles), so it lives beside them rather than inside one.
 */
export { registerCustomerMergeRoutes } from './routes.ts';
