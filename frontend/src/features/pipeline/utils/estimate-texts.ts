import { type EstimateStatus, formatDateTime } from '@crm/projections/contract';

/**
 * The estimate panel's line about a sent version: when and by whom, and what its link's end
 * means now. A link still open expires; one that ran out expired. An answered, revoked or
 * replaced version's link is over for another reason (its badge says which), so its end date,
 * often still ahead, is left out rather than told as past.
 */
export function estimateSentText(estimate: {
  version: number;
  sentAt: string;
  sentBy?: string | null;
  expiresAt: string;
  status: EstimateStatus;
}): string {
  const sent = `Version ${estimate.version} sent ${formatDateTime(estimate.sentAt)}${estimate.sentBy ? ` by ${estimate.sentBy}` : ''}`;
  if (estimate.status === 'sent') return `${sent}; the link expires ${formatDateTime(estimate.expiresAt)}.`;
  if (estimate.status === 'expired') return `${sent}; the link expired ${formatDateTime(estimate.expiresAt)}.`;
  return `${sent}.`;
}
