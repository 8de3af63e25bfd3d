/**
 * The messages slice's public module: what the runtime and other slices may use of it.
 */
export { registerMessageRoutes } from './routes.ts';
export { messageOutboxReactor, parseInvoiceAttachmentId } from './outbox-reactor.ts';
export { MessageSender } from './sender.ts';
export { transportsFromConfig } from './transports.ts';
export { consentOnCustomerRecord } from './message-queries.ts';
