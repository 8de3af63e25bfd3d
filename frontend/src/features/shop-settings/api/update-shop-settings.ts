import { shopSettingsSchema, type ShopSettingsInput } from '@crm/projections/contract';
import { revisionETag } from '@crm/projections/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { type LoadedShopSettings, shopSettingsApiPath, shopSettingsQueryKey } from '@/lib/shop-settings';

export interface UpdateShopSettingsInput {
  /** Only the fields that changed. */
  changes: ShopSettingsInput;
  /** The version edited: saving over someone else's newer change is a 409. */
  etag: string;
}

/** `PUT /api/{instance}/settings` (instance admins): each change recorded as an event. */
export async function updateShopSettings(instance: string, { changes, etag }: UpdateShopSettingsInput): Promise<LoadedShopSettings> {
  const { data, headers } = await apiFetchWithHeaders(shopSettingsApiPath(instance), {
    method: 'PUT',
    body: changes,
    headers: { 'If-Match': etag },
  });
  const settings = shopSettingsSchema.parse(data);
  return { settings, etag: headers.get('ETag') ?? revisionETag(settings.revision) };
}

export function useUpdateShopSettings(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateShopSettingsInput) => updateShopSettings(instance, input),
    onSuccess: (saved) => queryClient.setQueryData(shopSettingsQueryKey(instance), saved),
  });
}
