import { formatMileage } from '@crm/projections/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { vehiclePath } from '@/config/paths';
import { useCustomerVehicleList } from '../api/vehicles-api';
import { vehiclesWithoutRecord } from '../utils/vehicles-without-record';
import { VehicleForm } from './vehicle-form';

/**
 * The customer page's one list of vehicles: each record a link to its page, with plate, VIN tail
 * and last mileage, then the vehicles typed on the customer that have no record (`labels`, the
 * customer's Vehicles field); and adding one.
 */
export function CustomerVehicles({
  instance,
  customerId,
  labels,
  canWrite,
}: {
  instance: string;
  customerId: string;
  labels: readonly string[];
  canWrite: boolean;
}) {
  const vehicles = useCustomerVehicleList(instance, customerId);
  const [adding, setAdding] = useState(false);
  const typedOnly = vehicles.data ? vehiclesWithoutRecord(labels, vehicles.data) : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Vehicles</CardTitle>
        <CardDescription>Each vehicle has its own page with everything done to it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {vehicles.isPending ? <Spinner label="Loading vehicles..." /> : null}
        {vehicles.isError ? <p className="text-sm text-destructive">Could not load the vehicles.</p> : null}
        {vehicles.data?.length === 0 && typedOnly.length === 0 ? <p className="text-sm text-muted-foreground">No vehicles yet.</p> : null}
        {vehicles.data && (vehicles.data.length > 0 || typedOnly.length > 0) ? (
          <ul className="grid gap-2" aria-label="Vehicles">
            {vehicles.data.map((vehicle) => (
              <li key={vehicle.id} className="flex flex-wrap items-baseline justify-between gap-2 rounded-md border p-2">
                <Link to={vehiclePath(instance, vehicle.id)} className="font-medium text-primary underline-offset-4 hover:underline">
                  {vehicle.label}
                </Link>
                <span className="text-sm text-muted-foreground">
                  {[
                    vehicle.plate ? `${vehicle.plate}${vehicle.plateState ? ` (${vehicle.plateState})` : ''}` : '',
                    vehicle.vin ? `VIN …${vehicle.vin.slice(-8)}` : '',
                    vehicle.lastMileage !== null ? `${formatMileage(vehicle.lastMileage)} mi` : '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </li>
            ))}
            {typedOnly.map((label) => (
              <li key={`typed-${label}`} className="flex flex-wrap items-baseline justify-between gap-2 rounded-md border p-2">
                <span className="font-medium">{label}</span>
                <span className="text-sm text-muted-foreground">No page of its own yet</span>
              </li>
            ))}
          </ul>
        ) : null}
        {canWrite && !adding ? (
          <div>
            <Button variant="outline" size="sm" onClick={() => setAdding(true)}>
              Add vehicle
            </Button>
          </div>
        ) : null}
        {adding ? (
          <VehicleForm
            instance={instance}
            customerId={customerId}
            vehicle={null}
            onSaved={() => setAdding(false)}
            onCancel={() => setAdding(false)}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}
