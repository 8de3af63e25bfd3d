import { shopSettingsSchema, type ShopSettingsView } from '@crm/projections/contract';
import { revisionETag } from '@crm/projections/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetchWithHeaders } from './api-client';

/** Where an instance's shop settings live: `/api/{instance}/settings`. */
export const shopSettingsApiPath = (instance: string) => `/api/${encodeURIComponent(instance)}/settings`;

export const shopSettingsQueryKey = (instance: string) => ['shop-settings', instance] as const;

/** The shop's settings (name and address for documents, labor rate, tax rates, terms), and the ETag to save them with. */
export interface LoadedShopSettings {
  settings: ShopSettingsView;
  etag: string;
}

export async function getShopSettings(instance: string, signal?: AbortSignal): Promise<LoadedShopSettings> {
  const { data, headers } = await apiFetchWithHeaders(shopSettingsApiPath(instance), { signal });
  const settings = shopSettingsSchema.parse(data);
  return { settings, etag: headers.get('ETag') ?? revisionETag(settings.revision) };
}

export function shopSettingsQueryOptions(instance: string) {
  return queryOptions({
    queryKey: shopSettingsQueryKey(instance),
    queryFn: ({ signal }) => getShopSettings(instance, signal),
  });
}

/** Read by the job dialog (rates for the totals as typed) and the settings screen. */
export function useShopSettings(instance: string, enabled = true) {
  return useQuery({ ...shopSettingsQueryOptions(instance), enabled });
}
