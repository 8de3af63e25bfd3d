import type { CrmInstanceView } from '@crm/projections/platform';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useSetInstanceActive } from '../api/set-instance-active';

/** Deactivate (after a confirmation) or activate an instance. */
export function InstanceActiveToggle({ instance }: { instance: CrmInstanceView }) {
  const [confirming, setConfirming] = useState(false);
  const setActive = useSetInstanceActive();

  const handleChange = (isActive: boolean) =>
    setActive.mutate(
      { instanceId: instance.id, isActive },
      {
        onSuccess: () => {
          setConfirming(false);
          toast({
            title: isActive ? 'Instance activated' : 'Instance deactivated',
            description: isActive ? `${instance.displayName} can be signed into again.` : `${instance.displayName} is closed to its staff.`,
          });
        },
        onError: (error) =>
          toast({
            title: 'Error',
            description: error instanceof ApiError ? error.message : 'Failed to update the CRM instance',
            variant: 'destructive',
          }),
      },
    );

  if (!instance.isActive) {
    return (
      <Button variant="outline" size="sm" onClick={() => handleChange(true)} aria-disabled={setActive.isPending || undefined}>
        {setActive.isPending ? 'Activating...' : 'Activate'}
      </Button>
    );
  }
  return (
    <>
      <Button variant="ghost" size="sm" className="text-destructive" onClick={() => setConfirming(true)}>
        Deactivate
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open && !setActive.isPending) setConfirming(false);
        }}
        title={`Deactivate ${instance.displayName}?`}
        description="Its staff are signed out at once and cannot sign in until you activate it again. Nothing is deleted."
        confirmLabel="Deactivate"
        pendingLabel="Deactivating..."
        pending={setActive.isPending}
        onConfirm={() => handleChange(false)}
      />
    </>
  );
}
