import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { ShopSettingsScreen } from '@/features/shop-settings/components/shop-settings-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/admin/shop: the shop's settings; instance admins change them, managers read them. */
export function Component() {
  usePageTitle('Shop settings');
  const user = useSignedInUser();
  return <ShopSettingsScreen key={user.instance.subdomain} instance={user.instance.subdomain} canEdit={user.role === 'admin'} />;
}
