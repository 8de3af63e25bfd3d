import {
  customerConsentSchema,
  messagePageSchema,
  messageTemplatesSchema,
  messageViewSchema,
  type CustomerConsent,
  type CustomerConsentInput,
  type MessageStatus,
  type MessageTemplates,
  type MessageTemplatesInput,
} from '@crm/projections/messages';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/**
 * The outbox, templates and consent endpoints, shared by the Messages screen, the job's and
 * the customer's Messages tabs and the customer form (which live in different features).
 */

const base = (instance: string) => `/api/${encodeURIComponent(instance)}`;

export interface MessageFilter {
  status?: MessageStatus;
  jobId?: string;
  customerId?: string;
}

export const messagesKey = (instance: string) => ['messages', instance] as const;

export function useMessages(instance: string, filter: MessageFilter, enabled = true) {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.jobId) params.set('jobId', filter.jobId);
  if (filter.customerId) params.set('customerId', filter.customerId);
  params.set('limit', '100');
  const query = params.toString();
  return useQuery({
    queryKey: [...messagesKey(instance), query],
    queryFn: async ({ signal }) => messagePageSchema.parse(await apiFetch(`${base(instance)}/messages?${query}`, { signal })),
    placeholderData: keepPreviousData,
    enabled: enabled && Boolean(instance),
    // Queued messages go out in the background: the list follows them.
    refetchInterval: 5000,
  });
}

export function useRetryMessage(instance: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (messageId: string) =>
      messageViewSchema.parse(await apiFetch(`${base(instance)}/messages/${encodeURIComponent(messageId)}/retry`, { method: 'POST' })),
    onSettled: () => client.invalidateQueries({ queryKey: messagesKey(instance) }),
  });
}

const templatesKey = (instance: string) => ['message-templates', instance] as const;

export function useMessageTemplates(instance: string) {
  return useQuery({
    queryKey: templatesKey(instance),
    queryFn: async ({ signal }) => messageTemplatesSchema.parse(await apiFetch(`${base(instance)}/message-templates`, { signal })),
  });
}

export function useSaveMessageTemplates(instance: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: MessageTemplatesInput) =>
      messageTemplatesSchema.parse(await apiFetch(`${base(instance)}/message-templates`, { method: 'PUT', body: input })),
    onSuccess: (saved: MessageTemplates) => client.setQueryData(templatesKey(instance), saved),
  });
}

const consentKey = (instance: string, customerId: string) => ['customer-consent', instance, customerId] as const;

export function useCustomerConsent(instance: string, customerId: string | null) {
  return useQuery({
    queryKey: consentKey(instance, customerId ?? ''),
    queryFn: async ({ signal }) =>
      customerConsentSchema.parse(await apiFetch(`${base(instance)}/customers/${encodeURIComponent(customerId!)}/consent`, { signal })),
    enabled: Boolean(customerId),
  });
}

/** Records consent for a customer (after the customer is saved: a new one has its id only then). */
export async function saveCustomerConsent(instance: string, customerId: string, input: CustomerConsentInput): Promise<CustomerConsent> {
  return customerConsentSchema.parse(
    await apiFetch(`${base(instance)}/customers/${encodeURIComponent(customerId)}/consent`, { method: 'PUT', body: input }),
  );
}

export function useSaveCustomerConsent(instance: string, customerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerConsentInput) => saveCustomerConsent(instance, customerId, input),
    onSuccess: (saved) => client.setQueryData(consentKey(instance, customerId), saved),
  });
}
