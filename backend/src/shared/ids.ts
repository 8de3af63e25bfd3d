export { isUuid } from '@crm/projections/shared';
