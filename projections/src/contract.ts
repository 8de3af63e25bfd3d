/**
 * The API contract (`@crm/projections/contract`), one module for the server and the
 * screens: every route's request and response schemas (each slice's api.ts), the list,
 * cursor, time (`asOf`) and revision helpers, who may do what (hasPermission) and the
 * display formatters. The backend validates and answers with these schemas, the frontend
 * parses the answers with the very same ones, and GET /api/openapi.json is made from them.
 * Browser-safe.
 */
export * from './platform/api.ts';
export * from './identity/api.ts';
export * from './customers/api.ts';
export * from './pipeline/api.ts';
export * from './pipeline/board-api.ts';
export * from './pipeline/calendar-api.ts';
export * from './audit/api.ts';
export * from './live/api.ts';
export * from './service-requests/api.ts';
export * from './messages/api.ts';
export * from './vehicles/api.ts';
export * from './shared/list-query.ts';
export * from './shared/cursor.ts';
export * from './shared/revisions.ts';
export { hasPermission, type Permission } from './identity/permissions.ts';
export * from './shared/format.ts';
export { displayPhone, formatPhone, formatPhoneAsTyped, maskPhone } from './shared/phone.ts';
export { formatQuote, parseQuote, quoteText } from './pipeline/format.ts';
export { displayValue } from './customers/format.ts';
export * from './audit/format.ts';
export * from './repair-orders/api.ts';
export { computeTotals, LINE_KINDS, type LineKind, type RepairLine, type TaxRates, type Totals } from './repair-orders/totals.ts';
export { approvedTotalOf, type TaxRatesView } from './repair-orders/approved-total.ts';
export { balanceWords, formatMoney, moneyText, parseMoney, parseScaled, scaledShortText, scaledText } from './repair-orders/money.ts';
