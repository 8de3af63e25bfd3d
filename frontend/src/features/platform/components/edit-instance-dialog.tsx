import { EMPTY_VALUE, formatChangeValue, formatDateTime, type UpdateInstanceInput } from '@crm/projections/contract';
import {
  FEATURE_KEYS,
  FEATURE_LABELS,
  INSTANCE_FIELD_LABELS,
  type CrmInstanceView,
  type FeatureKey,
  type Features,
} from '@crm/projections/platform';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Field, fieldControlProps, Fieldset } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { SaveErrorMessage } from '@/components/save-error-message';
import { ApiError, errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { toast } from '@/lib/toast';
import { useInstanceHistory } from '../api/get-instance-history';
import { useCrmInstance, useUpdateCrmInstance } from '../api/update-crm-instance';
import { changeFieldLabel } from '@/lib/change-field-label';
import { FEATURE_DESCRIPTIONS } from '../constants/feature-labels';
import { TimeZoneSelect } from './time-zone-select';

export const INSTANCE_UPDATED = 'CRM instance updated';
export const INSTANCE_UPDATE_FAILED = 'Failed to update CRM instance';

interface Settings {
  displayName: string;
  description: string;
  timeZone: string;
  features: Features;
  publicRequests: boolean;
}

const settingsOf = (instance: CrmInstanceView): Settings => ({
  displayName: instance.displayName,
  description: instance.description,
  timeZone: instance.timeZone,
  features: { ...instance.features },
  publicRequests: instance.publicRequests,
});

/** Only what the form changed: the event records those fields and nothing else. */
function changesOf(before: Settings, after: Settings): UpdateInstanceInput {
  const changes: UpdateInstanceInput = {};
  if (after.displayName.trim() !== before.displayName) changes.displayName = after.displayName.trim();
  if (after.description.trim() !== before.description) changes.description = after.description.trim();
  if (after.timeZone !== before.timeZone) changes.timeZone = after.timeZone;
  const features = FEATURE_KEYS.filter((key) => after.features[key] !== before.features[key]);
  if (features.length > 0) changes.features = Object.fromEntries(features.map((key) => [key, after.features[key]]));
  if (after.publicRequests !== before.publicRequests) changes.publicRequests = after.publicRequests;
  return changes;
}

function SettingsForm({ instance, onDone }: { instance: CrmInstanceView; onDone: () => void }) {
  const id = useId();
  const loaded = useCrmInstance(instance.id);
  const update = useUpdateCrmInstance();
  const [form, setForm] = useState<Settings>(() => settingsOf(instance));
  const [error, setError] = useState<{ message: string; conflict: boolean } | null>(null);
  const base = loaded.data ? settingsOf(loaded.data) : null;

  // The form starts from the server's current settings once they arrive.
  const loadedRevision = loaded.data?.revision;
  useEffect(() => {
    if (loaded.data) setForm(settingsOf(loaded.data));
    // Only a new revision resets the form (not every refetch of the same one).
  }, [loadedRevision]);

  const setFeature = (key: FeatureKey, on: boolean) => setForm((current) => ({ ...current, features: { ...current.features, [key]: on } }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!base || update.isPending) return;
    if (!form.displayName.trim()) {
      setError({ message: 'Display name is required', conflict: false });
      document.getElementById(`${id}-displayName`)?.focus();
      return;
    }
    const changes = changesOf(base, form);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    setError(null);
    update.mutate(
      { instanceId: instance.id, revision: loaded.data?.revision, changes },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: INSTANCE_UPDATED });
          onDone();
        },
        onError: (failure) => {
          const conflict = failure instanceof ApiError && failure.status === 409;
          if (!conflict) reportFailure('Update CRM instance failed', failure);
          setError({ message: errorMessage(failure, INSTANCE_UPDATE_FAILED), conflict });
        },
      },
    );
  };

  if (loaded.isError) {
    return (
      <Alert>
        <SaveErrorMessage
          message={errorMessage(loaded.error, 'The instance could not be loaded')}
          onLoadCurrent={() => void loaded.refetch()}
        />
      </Alert>
    );
  }
  if (!base) return <Spinner size="sm" label="Loading settings..." />;

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <Field id={`${id}-displayName`} label="Display Name">
        <Input
          {...fieldControlProps(`${id}-displayName`, {})}
          value={form.displayName}
          onChange={(event) => setForm((current) => ({ ...current, displayName: event.target.value }))}
          autoComplete="off"
          maxLength={100}
        />
      </Field>
      <Field id={`${id}-description`} label="Description">
        <Textarea
          value={form.description}
          id={`${id}-description`}
          onChange={(event) => setForm((current) => ({ ...current, description: event.target.value }))}
          maxLength={1000}
        />
      </Field>
      <Field id={`${id}-timeZone`} label="Time Zone" hint="The shop's calendar, working hours and dashboard go by this clock.">
        <TimeZoneSelect
          {...fieldControlProps(`${id}-timeZone`, { hint: true })}
          value={form.timeZone}
          onChange={(timeZone) => setForm((current) => ({ ...current, timeZone }))}
        />
      </Field>
      <Fieldset legend="Features">
        <div className="grid gap-3 sm:grid-cols-2">
          {FEATURE_KEYS.map((key) => (
            <Checkbox
              key={key}
              id={`${id}-feature-${key}`}
              label={FEATURE_LABELS[key]}
              description={FEATURE_DESCRIPTIONS[key]}
              checked={form.features[key]}
              onChange={(event) => setFeature(key, event.target.checked)}
            />
          ))}
        </div>
      </Fieldset>
      <Fieldset legend="Online booking">
        <Checkbox
          id={`${id}-publicRequests`}
          label="Public request page"
          description={
            form.features.serviceRequests
              ? `Customers can send a service request at /${instance.subdomain}/request without signing in.`
              : 'Needs the Service Requests feature.'
          }
          checked={form.publicRequests && form.features.serviceRequests}
          disabled={!form.features.serviceRequests}
          onChange={(event) => setForm((current) => ({ ...current, publicRequests: event.target.checked }))}
        />
      </Fieldset>
      <Alert>
        {error ? (
          <SaveErrorMessage
            message={error.message}
            onLoadCurrent={
              error.conflict
                ? () => {
                    setError(null);
                    void loaded.refetch().then((result) => {
                      if (result.data) setForm(settingsOf(result.data));
                    });
                  }
                : undefined
            }
          />
        ) : null}
      </Alert>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" aria-disabled={update.isPending || undefined}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function InstanceHistory({ instanceId }: { instanceId: string }) {
  const history = useInstanceHistory(instanceId);
  if (history.isPending) return <Spinner size="sm" label="Loading history..." />;
  if (history.isError) return <p className="text-sm text-muted-foreground">The history is not available right now.</p>;
  return (
    <ol className="grid divide-y" aria-label="Changes, newest first">
      {history.data.map((entry) => (
        <li key={entry.id} className="grid gap-1 py-3 first:pt-0">
          <p className="text-sm">
            <span className="font-medium capitalize">
              {entry.action === 'unshowable' ? 'A change that could not be shown' : entry.action}
            </span>
            <span className="text-muted-foreground">
              {' '}
              by {entry.userDisplayName} · {formatDateTime(entry.timestamp)}
            </span>
          </p>
          {entry.changes.length > 0 ? (
            <ul className="grid gap-0.5 text-xs text-muted-foreground">
              {entry.changes.map((change) => {
                // In words as the audit log has them; a value that appears from nothing shows only the new one.
                const before = formatChangeValue(change.field, change.oldValue);
                return (
                  <li key={change.field}>
                    <span className="font-medium text-foreground">{changeFieldLabel(change.field, INSTANCE_FIELD_LABELS)}:</span>{' '}
                    {before === EMPTY_VALUE ? '' : `${before} → `}
                    {formatChangeValue(change.field, change.newValue)}
                  </li>
                );
              })}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * The super admin's Edit on an instance card: display name, description, time zone, features
 * and the public request page, saved as one change of only what differs (If-Match: the
 * revision loaded), and the instance's history beside it.
 */
export function EditInstanceDialog({ instance }: { instance: CrmInstanceView }) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<'settings' | 'history'>('settings');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setTab('settings');
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          Edit<span className="sr-only"> {instance.displayName}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="gap-5 sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit {instance.displayName}</DialogTitle>
          <DialogDescription>
            Its address stays <span className="font-mono">/{instance.subdomain}</span>; changes apply to its staff at once.
          </DialogDescription>
        </DialogHeader>
        <div role="tablist" aria-label="Edit instance" className="flex gap-1 rounded-lg bg-muted p-1">
          {(['settings', 'history'] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              onClick={() => setTab(name)}
              className="flex-1 rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground capitalize outline-none focus-visible:ring-2 focus-visible:ring-ring aria-selected:bg-background aria-selected:text-foreground aria-selected:shadow-sm"
            >
              {name}
            </button>
          ))}
        </div>
        {tab === 'settings' ? (
          <SettingsForm instance={instance} onDone={() => setOpen(false)} />
        ) : (
          <InstanceHistory instanceId={instance.id} />
        )}
      </DialogContent>
    </Dialog>
  );
}
