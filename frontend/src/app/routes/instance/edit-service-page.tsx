import { formatPhoneAsTyped } from '@crm/projections/shared';
import type { JobChangesInput } from '@crm/projections/pipeline';
import type { ServiceRequestView } from '@crm/projections/service-requests';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { instanceLinks } from '@/config/paths';
import { RequireFeature } from '@/features/identity/components/require-feature';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canDelete, canWrite, nameOf } from '@/features/identity/utils/user-access';
import { pipelineQueryKey } from '@/features/pipeline/api/pipeline-api-path';
import { EntryDialog, type EntryDialogTarget } from '@/features/pipeline/components/entry-dialog';
import type { EntryForm } from '@/features/pipeline/utils/entry-form';
import { useConvertServiceRequest } from '@/features/service-requests/api/save-service-request';
import { ServiceRequestDetailScreen } from '@/features/service-requests/components/service-request-detail-screen';
import { requestNumber } from '@/features/service-requests/utils/service-request-form';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * The pipeline entry a request becomes, filled in from it: name, vehicle, the service as the
 * part, the wanted date as the appointment (9:00, to be adjusted), and a note naming the
 * request (the job's way back to it) with the customer's email and notes.
 */
function entryDraft(request: ServiceRequestView): Partial<EntryForm> {
  const notes = [
    `From service request ${requestNumber(request)}`,
    request.contactEmail ? `Email: ${request.contactEmail}` : '',
    request.additionalNotes,
  ].filter(Boolean);
  return {
    name: request.customerName,
    // The phone to call back on: whole on one request, and formatted as the dialog's box types it.
    phone: formatPhoneAsTyped(request.contactPhone),
    makeModel: request.vehicleType,
    part: request.serviceType,
    appointment: request.scheduledDate ? `${request.scheduledDate}T09:00` : '',
    notes: notes.join('\n'),
  };
}

/**
 * /edit-service/{id}: the request (view, edit, history), and Create job: the pipeline's entry
 * dialog opens prefilled and its save converts the request (one call that creates the job and
 * links both). A converted request opens its job in the same dialog.
 */
export function Component() {
  const { id = '' } = useParams();
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const links = instanceLinks(instance);
  const queryClient = useQueryClient();
  const convert = useConvertServiceRequest(instance);
  const [dialog, setDialog] = useState<EntryDialogTarget | null>(null);
  const permissions = { canWrite: canWrite(user), canDelete: canDelete(user) };
  const pipelineOn = user.instance.features.pipeline;
  usePageTitle('Service Request');

  const createJob = (request: ServiceRequestView, customerId?: string) =>
    setDialog({
      kind: 'new',
      // The request's page offered the customers with its name, phone or email already.
      offerMatches: false,
      draft: { ...entryDraft(request), ...(customerId ? { customerId } : {}) },
      onCreate: async (entry: JobChangesInput) => {
        const result = await convert.mutateAsync({ id: request.id, entry });
        await queryClient.invalidateQueries({ queryKey: pipelineQueryKey(instance) });
        toast({
          title: 'Job created',
          description: `${requestNumber(request)} is now job #${result.serviceRequest.jobNumber ?? ''}.`,
        });
      },
    });

  return (
    <RequireFeature feature="serviceRequests">
      <ServiceRequestDetailScreen
        key={id}
        instance={instance}
        id={id}
        listPath={links.serviceList}
        permissions={permissions}
        onCreateJob={pipelineOn ? createJob : undefined}
        onOpenJob={pipelineOn ? (request) => request.jobId && setDialog({ kind: 'edit', jobId: request.jobId }) : undefined}
      />
      {dialog ? (
        <EntryDialog
          key={dialog.kind === 'edit' ? dialog.jobId : 'new'}
          instance={instance}
          target={dialog}
          currentUserName={nameOf(user)}
          permissions={permissions}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </RequireFeature>
  );
}
