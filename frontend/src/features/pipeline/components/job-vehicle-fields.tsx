import { VEHICLE_LIMITS, type VehicleView } from '@crm/projections/vehicles';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { vehiclePath } from '@/config/paths';
import { ChoiceSelect } from '@/components/choice-select';
import { TextField } from '@/components/text-field';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-error';
import { vinFeedback } from '@/lib/vin-feedback';
import { useAddCustomerVehicle, useCustomerVehicles } from '../api/customer-vehicles';
import type { EntryForm } from '../utils/entry-form';

type VehiclePatch = Partial<Pick<EntryForm, 'vehicleId' | 'makeModel' | 'vin' | 'mileageIn' | 'mileageOut' | 'mileageLowerReason'>>;

/** Digits of a typed mileage (commas allowed), or null. */
function mileageOf(value: string): number | null {
  const digits = value.replace(/[,\s]/g, '');
  return /^\d+$/.test(digits) ? Number(digits) : null;
}

/**
 * The job's vehicle (one of its customer's, or one added here) and the odometer in and out.
 * A reading lower than the vehicle's last one asks for the reason that confirms it.
 */
export function JobVehicleFields({
  instance,
  form,
  errors,
  onChange,
}: {
  instance: string;
  form: EntryForm;
  errors: Partial<Record<keyof EntryForm, string>>;
  onChange: (patch: VehiclePatch) => void;
}) {
  const vehicles = useCustomerVehicles(instance, form.customerId);
  const [adding, setAdding] = useState(false);
  const list = vehicles.data ?? [];
  const chosen = list.find((vehicle) => vehicle.id === form.vehicleId) ?? null;
  const choose = (vehicle: VehicleView | null) =>
    onChange(vehicle ? { vehicleId: vehicle.id, makeModel: vehicle.label, vin: vehicle.vin } : { vehicleId: null });

  // Another customer (or none) chosen: the vehicle of the one before is not this job's.
  const stale = Boolean(form.vehicleId) && (!form.customerId || (vehicles.isSuccess && !chosen));
  useEffect(() => {
    if (stale) onChange({ vehicleId: null });
  }, [stale, onChange]);

  const last = chosen?.lastMileage ?? null;
  const lowest = [mileageOf(form.mileageIn), mileageOf(form.mileageOut)].filter((m): m is number => m !== null);
  const lower = last !== null && lowest.some((m) => m < last);

  return (
    // The gap of the dialog's own grid, so these boxes line up with the columns above and below.
    <div className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
      {form.customerId ? (
        <div className="grid gap-1 sm:col-span-2">
          <Field id="entry-vehicleId" label="Customer's vehicle" error={errors.vehicleId}>
            <ChoiceSelect
              id="entry-vehicleId"
              value={form.vehicleId ?? ''}
              onChange={(value) => choose(list.find((vehicle) => vehicle.id === value) ?? null)}
              noneLabel={vehicles.isPending ? 'Loading vehicles…' : 'No vehicle record'}
              choices={list.map((vehicle) => ({
                value: vehicle.id,
                label: [vehicle.label, vehicle.plate, vehicle.vin ? `…${vehicle.vin.slice(-6)}` : ''].filter(Boolean).join(' · '),
              }))}
            />
          </Field>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            {chosen ? (
              <Link className="text-primary underline-offset-4 hover:underline" to={vehiclePath(instance, chosen.id)}>
                Open {chosen.label}
                {last !== null ? ` (last reading ${last.toLocaleString('en-US')})` : ''}
              </Link>
            ) : null}
            {!adding ? (
              <Button type="button" variant="outline" size="sm" onClick={() => setAdding(true)}>
                Add a vehicle
              </Button>
            ) : null}
          </div>
          {adding ? (
            <NewVehicle
              instance={instance}
              customerId={form.customerId}
              onAdded={(vehicle) => {
                setAdding(false);
                choose(vehicle);
              }}
              onCancel={() => setAdding(false)}
            />
          ) : null}
        </div>
      ) : null}
      <TextField
        id="entry-mileageIn"
        label="Mileage in"
        inputMode="numeric"
        value={form.mileageIn}
        onChange={(event) => onChange({ mileageIn: event.target.value })}
        error={errors.mileageIn}
        autoComplete="off"
      />
      <TextField
        id="entry-mileageOut"
        label="Mileage out"
        inputMode="numeric"
        value={form.mileageOut}
        onChange={(event) => onChange({ mileageOut: event.target.value })}
        error={errors.mileageOut}
        autoComplete="off"
      />
      {lower ? (
        <div className="sm:col-span-2">
          <TextField
            id="entry-mileageLowerReason"
            label={`Reason the mileage is below the last reading (${last!.toLocaleString('en-US')})`}
            hint="Required to save a lower reading, e.g. odometer replaced or a typo corrected."
            value={form.mileageLowerReason}
            onChange={(event) => onChange({ mileageLowerReason: event.target.value })}
            maxLength={VEHICLE_LIMITS.mileageReason}
            error={errors.mileageLowerReason}
          />
        </div>
      ) : null}
    </div>
  );
}

/** Year, make, model and VIN of a vehicle added from the dialog; the VIN is checked as it is typed. */
function NewVehicle({
  instance,
  customerId,
  onAdded,
  onCancel,
}: {
  instance: string;
  customerId: string;
  onAdded: (vehicle: VehicleView) => void;
  onCancel: () => void;
}) {
  const add = useAddCustomerVehicle(instance, customerId);
  const [fields, setFields] = useState({ year: '', make: '', model: '', vin: '', plate: '' });
  const vin = vinFeedback(fields.vin, fields.year);
  const set = (field: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [field]: event.target.value }));
  const save = () => {
    if (vin.error) return;
    add.mutate(fields, { onSuccess: onAdded });
  };
  return (
    <div className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" role="group" aria-label="New vehicle">
      <TextField id="new-vehicle-year" label="Year" inputMode="numeric" value={fields.year} onChange={set('year')} />
      <TextField id="new-vehicle-make" label="Make" value={fields.make} onChange={set('make')} maxLength={VEHICLE_LIMITS.make} />
      <TextField id="new-vehicle-model" label="Model" value={fields.model} onChange={set('model')} maxLength={VEHICLE_LIMITS.model} />
      <TextField id="new-vehicle-plate" label="Plate" value={fields.plate} onChange={set('plate')} maxLength={VEHICLE_LIMITS.plate} />
      <div className="sm:col-span-2">
        <TextField
          id="new-vehicle-vin"
          label="VIN"
          value={fields.vin}
          onChange={set('vin')}
          error={vin.error}
          hint={vin.hint}
          className="font-mono uppercase"
          autoCapitalize="characters"
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      {add.isError ? (
        <p className="text-sm text-destructive sm:col-span-2">{errorMessage(add.error, 'Could not save the vehicle')}</p>
      ) : null}
      <div className="flex gap-2 sm:col-span-2">
        <Button type="button" size="sm" onClick={save} aria-disabled={add.isPending || undefined}>
          Save vehicle
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
