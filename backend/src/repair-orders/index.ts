/**
 * The repair-orders slice's public module: what the other slices and the HTTP shell may use
 * of it. Anything outside backend/src/repair-orders imports the slice through this file only.
 */
export { jobWithRepairOrder, registerRepairOrderRoutes } from './routes.ts';
export { jobDetailFromEvents } from './repair-order-service.ts';
export { weeklyJobMoney, type WeeklyJobMoney } from './repair-order-queries.ts';
export { jobChangeOffer, jobStreamRead, revertJobHistoryChange } from './repair-order-reverts.ts';
export { renderInvoicePdf } from './document-routes.ts';
export { repairOrderDecider, type RepairOrderCommand } from './repair-order-decider.ts';
export { newEstimateToken, newLineId, newPaymentId, reserveInvoiceNumber, runRepairOrderCommand } from './repair-order-service.ts';
export { loadShopSettings, ratesOf, updateShopSettings } from './shop-settings.ts';
