import type { JobHistoryEntry } from '@crm/projections/contract';
import { formatDateTime } from '@crm/projections/contract';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { CalendarScreen } from '@/features/calendar/components/calendar-screen';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canDelete, canWrite, nameOf } from '@/features/identity/utils/user-access';
import { CustomerNameField } from '@/features/pipeline/components/customer-name-field';
import { EntryDialog } from '@/features/pipeline/components/entry-dialog';
import { JobHistoryView } from '@/features/pipeline/components/job-history-view';
import { JobSnapshotView } from '@/features/pipeline/components/job-snapshot-view';
import { usePageTitle } from '@/lib/use-page-title';

/** A job's history inside Edit Appointment: the pipeline's list, and a row opens that version. */
function AppointmentHistory({ instance, jobId }: { instance: string; jobId: string }) {
  const [version, setVersion] = useState<JobHistoryEntry | null>(null);
  if (!version) return <JobHistoryView instance={instance} jobId={jobId} onOpenVersion={setVersion} />;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="ghost" size="sm" className="-ml-2" onClick={() => setVersion(null)}>
          <ArrowLeftIcon />
          All changes
        </Button>
        <span className="text-sm text-muted-foreground">As of {formatDateTime(version.timestamp)}</span>
      </div>
      <JobSnapshotView instance={instance} jobId={jobId} revision={version.revision} />
    </div>
  );
}

/**
 * /crm/{instance}/calendar, /{subdomain}/calendar and /maven/calendar: the
 * calendar screen, in the shop's time zone. The app composes the pipeline's pieces in (features do
 * not import each other): the entry dialog's customer autocomplete for Customer Name, the
 * job's history, and the full entry dialog.
 */
export function Component() {
  usePageTitle('Calendar');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const [fullEntry, setFullEntry] = useState<string | null>(null);
  const permissions = { canWrite: canWrite(user), canDelete: canDelete(user) };
  return (
    <>
      <CalendarScreen
        key={instance}
        instance={instance}
        timeZone={user.instance.timeZone}
        currentUserName={nameOf(user)}
        canWrite={permissions.canWrite}
        renderCustomerField={(props) => <CustomerNameField instance={instance} {...props} />}
        renderHistory={(jobId) => <AppointmentHistory instance={instance} jobId={jobId} />}
        onOpenFullEntry={setFullEntry}
      />
      {fullEntry ? (
        <EntryDialog
          instance={instance}
          target={{ kind: 'edit', jobId: fullEntry }}
          currentUserName={nameOf(user)}
          permissions={permissions}
          onClose={() => setFullEntry(null)}
        />
      ) : null}
    </>
  );
}
