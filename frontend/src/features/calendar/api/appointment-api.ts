import { jobViewSchema } from '@crm/projections/contract';
import type { AppointmentView, JobChangesInput, JobView } from '@crm/projections/pipeline';
import { revisionETag } from '@crm/projections/shared';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { calendarQueryKey, pipelineApiPath as pipelinePath, pipelineQueryKey } from '@/lib/api/resources';
import { conflictCurrent } from '@/lib/concurrency';

/** A job read on its own (its phone whole) with the ETag to save over. */
export interface LoadedAppointment {
  job: JobView;
  etag: string;
}

async function loaded(promise: Promise<{ data: unknown; headers: Headers }>): Promise<LoadedAppointment> {
  const { data, headers } = await promise;
  const job = jobViewSchema.parse(data);
  return { job, etag: headers.get('ETag') ?? revisionETag(job.revision) };
}

/** Edit Appointment reads the job fresh: the calendar's list masks phones and may be a moment old. */
export function useAppointmentJob(instance: string, jobId: string | null) {
  return useQuery({
    queryKey: [...pipelineQueryKey(instance), 'job', jobId ?? ''],
    queryFn: ({ signal }) => loaded(apiFetchWithHeaders(pipelinePath(instance, jobId!), { signal })),
    enabled: jobId !== null,
  });
}

/** After a change the calendar and the pipeline's lists and job are read again. */
async function refreshAfterChange(queryClient: QueryClient, instance: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: calendarQueryKey(instance) }),
    queryClient.invalidateQueries({ queryKey: pipelineQueryKey(instance) }),
  ]);
}

export function useCreateAppointment(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: JobChangesInput) => loaded(apiFetchWithHeaders(pipelinePath(instance), { method: 'POST', body: entry })),
    onSuccess: () => refreshAfterChange(queryClient, instance),
  });
}

export function useUpdateAppointment(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, entry, etag }: { jobId: string; entry: JobChangesInput; etag: string }) =>
      loaded(apiFetchWithHeaders(pipelinePath(instance, jobId), { method: 'PUT', body: entry, headers: { 'If-Match': etag } })),
    onSuccess: () => refreshAfterChange(queryClient, instance),
  });
}

/** A 409 on save carries the job as it is now; null for any other error. */
export function conflictingJob(error: unknown): JobView | null {
  return conflictCurrent(error, jobViewSchema);
}

export interface RescheduleInput {
  job: AppointmentView;
  /** ISO instant. */
  appointment: string;
  duration: number | null;
  /** The lane's technician; undefined leaves it. */
  tech?: string;
}

type CalendarCache = { timeZone: string; from: string; to: string; items: AppointmentView[] };

/**
 * Drag, resize and lane change: the block moves at once in every cached range; a refusal
 * (409, 403, a network error) puts the caches back as they were, so the block snaps back.
 * If-Match is the revision the calendar drew, so a move over someone else's change is a 409.
 */
export function useRescheduleAppointment(instance: string) {
  const queryClient = useQueryClient();
  const key = calendarQueryKey(instance);
  return useMutation({
    mutationFn: ({ job, appointment, duration, tech }: RescheduleInput) =>
      loaded(
        apiFetchWithHeaders(pipelinePath(instance, job.id, 'appointment'), {
          method: 'PATCH',
          body: { appointment, duration, ...(tech === undefined ? {} : { tech }) },
          headers: { 'If-Match': revisionETag(job.revision) },
        }),
      ),
    onMutate: async ({ job, appointment, duration, tech }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueriesData<CalendarCache>({ queryKey: key });
      const end = new Date(Date.parse(appointment) + (duration ?? 60) * 60_000).toISOString();
      queryClient.setQueriesData<CalendarCache>({ queryKey: key }, (cache) =>
        cache
          ? {
              ...cache,
              items: cache.items.map((item) =>
                item.id === job.id ? { ...item, appointment, appointmentEnd: end, duration, tech: tech ?? item.tech } : item,
              ),
            }
          : cache,
      );
      return { before };
    },
    onError: (_error, _input, context) => {
      for (const [queryKey, data] of context?.before ?? []) queryClient.setQueryData(queryKey, data);
    },
    onSettled: () => refreshAfterChange(queryClient, instance),
  });
}
