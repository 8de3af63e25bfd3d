import { VEHICLE_LIMITS, type VehicleView } from '@crm/projections/vehicles';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { TextField } from '@/components/text-field';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/input';
import { Field, fieldControlProps } from '@/components/ui/field';
import { vehiclePath } from '@/config/paths';
import { ApiError, errorMessage, problemFieldErrors } from '@/lib/api-error';
import { vinFeedback } from '@/lib/vin-feedback';
import { useSaveVehicle } from '../api/vehicles-api';

const FIELDS = ['year', 'make', 'model', 'trim', 'vin', 'plate', 'plateState', 'color', 'notes'] as const;
type FormFields = Record<(typeof FIELDS)[number], string>;

/** The vehicle a 409 says has the VIN already (the server names it), to open it instead of making a second record of one car. */
function vinHolderOf(error: unknown): { id: string; label: string } | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const holder = error.problem?.vehicle as { id?: unknown; label?: unknown } | undefined;
  return typeof holder?.id === 'string' && typeof holder.label === 'string' ? { id: holder.id, label: holder.label } : null;
}

function formOf(vehicle: VehicleView | null): FormFields {
  const form = Object.fromEntries(FIELDS.map((field) => [field, ''])) as FormFields;
  if (!vehicle) return form;
  for (const field of FIELDS) form[field] = vehicle[field] === null ? '' : String(vehicle[field]);
  return form;
}

/** A vehicle's fields: a new one of the customer, or changes to one (only what changed is sent, with If-Match). */
export function VehicleForm({
  instance,
  customerId,
  vehicle,
  onSaved,
  onCancel,
}: {
  instance: string;
  customerId: string;
  vehicle: VehicleView | null;
  onSaved: (vehicle: VehicleView) => void;
  onCancel: () => void;
}) {
  const save = useSaveVehicle(instance);
  const [form, setForm] = useState<FormFields>(() => formOf(vehicle));
  const vin = vinFeedback(form.vin, form.year);
  // A VIN another vehicle has: said at the VIN box, with that vehicle's page a click away.
  const vinHolder = save.isError ? vinHolderOf(save.error) : null;
  const vinError = vin.error ?? (vinHolder ? problemFieldErrors(save.error).vin : undefined);
  const set = (field: keyof FormFields) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (vin.error || save.isPending) return;
    if (!vehicle) {
      save.mutate({ kind: 'create', customerId, input: form }, { onSuccess: onSaved });
      return;
    }
    const original = formOf(vehicle);
    const changes = Object.fromEntries(FIELDS.filter((field) => form[field] !== original[field]).map((field) => [field, form[field]]));
    if (Object.keys(changes).length === 0) return onCancel();
    save.mutate({ kind: 'update', id: vehicle.id, changes, revision: vehicle.revision }, { onSuccess: onSaved });
  };
  const id = (field: string) => `vehicle-${field}`;
  return (
    <form className="grid gap-3 sm:grid-cols-2" onSubmit={submit} aria-label={vehicle ? 'Edit vehicle' : 'New vehicle'}>
      <TextField id={id('year')} label="Year" inputMode="numeric" value={form.year} onChange={set('year')} maxLength={4} />
      <TextField id={id('make')} label="Make" value={form.make} onChange={set('make')} maxLength={VEHICLE_LIMITS.make} />
      <TextField id={id('model')} label="Model" value={form.model} onChange={set('model')} maxLength={VEHICLE_LIMITS.model} />
      <TextField id={id('trim')} label="Trim" value={form.trim} onChange={set('trim')} maxLength={VEHICLE_LIMITS.trim} />
      <div className="sm:col-span-2">
        <TextField
          id={id('vin')}
          label="VIN"
          value={form.vin}
          onChange={(event) => {
            if (vinHolder) save.reset();
            set('vin')(event);
          }}
          error={vinError}
          hint={vin.hint}
          className="font-mono uppercase"
          autoCapitalize="characters"
          spellCheck={false}
          autoComplete="off"
          maxLength={24}
        />
        {vinHolder ? (
          <Link
            className="mt-1 inline-block text-sm text-primary underline-offset-4 hover:underline"
            to={vehiclePath(instance, vinHolder.id)}
          >
            Open {vinHolder.label}
          </Link>
        ) : null}
      </div>
      <TextField id={id('plate')} label="Plate" value={form.plate} onChange={set('plate')} maxLength={VEHICLE_LIMITS.plate} />
      <TextField
        id={id('plateState')}
        label="Plate state"
        value={form.plateState}
        onChange={set('plateState')}
        maxLength={VEHICLE_LIMITS.plateState}
      />
      <TextField id={id('color')} label="Color" value={form.color} onChange={set('color')} maxLength={VEHICLE_LIMITS.color} />
      <div className="sm:col-span-2">
        <Field id={id('notes')} label="Notes">
          <Textarea
            value={form.notes}
            onChange={set('notes')}
            maxLength={VEHICLE_LIMITS.notes}
            rows={3}
            {...fieldControlProps(id('notes'), {})}
          />
        </Field>
      </div>
      {save.isError && !vinHolder ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-2">
          {errorMessage(save.error, 'Could not save the vehicle. Please try again.')}
        </p>
      ) : null}
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" aria-disabled={save.isPending || undefined}>
          {vehicle ? 'Save vehicle' : 'Add vehicle'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
