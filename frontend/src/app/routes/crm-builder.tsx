import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useAppInfo } from '@/features/app-info/api/get-app-info';
import { CreateInstanceForm } from '@/features/platform/components/create-instance-form';
import { publicOrigin } from '@/features/platform/utils/shop-addresses';
import { usePageTitle } from '@/lib/use-page-title';
import { BackLink } from '@/components/back-link';

/** The full create-instance page. */
export function Component() {
  usePageTitle('Create CRM');
  const navigate = useNavigate();
  const { data: appInfo } = useAppInfo();
  // Until /api/app-info answers, preview against the page's own origin.
  const origin = publicOrigin(window.location, appInfo?.host);

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <BackLink to={paths.crmSelection}>Back to CRM selection</BackLink>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Create CRM</h1>
        <p className="text-muted-foreground">Set up a new CRM system for a shop.</p>
      </div>
      <CreateInstanceForm variant="page" origin={origin} onCreated={() => void navigate(paths.crmSelection)} />
    </div>
  );
}
