import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { toast } from '@/lib/toast';
import { usePublicRequestsSetting, useSetPublicRequests } from '../api/public-requests-setting';

/**
 * The shop admin's switch for its public request page (online booking): off by default; on,
 * the shop's customers send requests at /{subdomain}/request without signing in, and new ones
 * show a badge in the navigation. The change is recorded in the instance's history.
 */
export function PublicRequestsCard() {
  const setting = usePublicRequestsSetting(true);
  const update = useSetPublicRequests();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Online requests</CardTitle>
        <CardDescription>Let customers send a service request from the shop&apos;s own page, without an account.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {setting.isPending ? <Spinner size="sm" label="Loading..." /> : null}
        {setting.data ? (
          <>
            <Checkbox
              id="public-requests-switch"
              label="Public request page"
              description={
                setting.data.enabled ? (
                  <>
                    On: customers use{' '}
                    <Link to={setting.data.path} className="font-mono text-primary underline-offset-2 hover:underline">
                      {setting.data.path}
                    </Link>
                    . It is limited per visitor and per shop, so it cannot flood the list.
                  </>
                ) : (
                  'Off: only staff enter service requests.'
                )
              }
              // While the change is on its way, the box shows what was asked for.
              checked={update.isPending ? update.variables : setting.data.enabled}
              aria-disabled={update.isPending || undefined}
              onChange={(event) => {
                if (update.isPending) return;
                const enabled = event.target.checked;
                update.mutate(enabled, {
                  onSuccess: () =>
                    toast({ title: 'Success', description: enabled ? 'Public request page is on' : 'Public request page is off' }),
                  onError: (error) => {
                    reportFailure('Public request page switch failed', error);
                    toast({
                      title: 'Error',
                      description: errorMessage(error, 'Failed to change the public request page'),
                      variant: 'destructive',
                    });
                  },
                });
              }}
            />
          </>
        ) : null}
        <Alert>{setting.isError ? errorMessage(setting.error, 'The setting could not be loaded') : null}</Alert>
      </CardContent>
    </Card>
  );
}
