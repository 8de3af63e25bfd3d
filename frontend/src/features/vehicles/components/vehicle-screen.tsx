import { formatDateTime, formatMileage } from '@crm/projections/contract';
import { decodedVinText, vinYearDisagreement, type VehicleHistoryItem } from '@crm/projections/vehicles';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { customerPath } from '@/config/paths';
import { usePageTitle } from '@/lib/use-page-title';
import { useVehicle, useVehicleHistory } from '../api/vehicles-api';
import { VehicleForm } from './vehicle-form';
import { BackLink } from '@/components/back-link';

/**
 * A vehicle's page: its details (typed and as its VIN decodes), the visits booked ahead (by
 * appointment), and every job, note and change on it, newest first, with mileage.
 */
export function VehicleScreen({
  instance,
  id,
  canWrite,
  jobPath,
}: {
  instance: string;
  id: string;
  canWrite: boolean;
  jobPath: (jobId: string) => string;
}) {
  const vehicle = useVehicle(instance, id);
  const history = useVehicleHistory(instance, id);
  const [editing, setEditing] = useState(false);
  const items = history.data ?? [];
  // A job booked for later is a visit to come, not service done: listed apart, soonest first, by its appointment.
  const upcoming = items.filter((item) => item.upcoming).sort((a, b) => (a.appointment ?? '').localeCompare(b.appointment ?? ''));
  const past = items.filter((item) => !item.upcoming);
  usePageTitle(vehicle.data?.label ?? 'Vehicle');

  if (vehicle.isPending) return <PageSpinner label="Loading vehicle..." />;
  if (vehicle.isError || !vehicle.data) return <Alert>Vehicle not found. It may have been deleted.</Alert>;
  const v = vehicle.data;
  const yearDisagreement = v.decoded ? vinYearDisagreement(v.year, v.decoded) : null;
  const facts: Array<[string, string]> = [
    ['Year', v.year === null ? '' : String(v.year)],
    ['Make', v.make],
    ['Model', v.model],
    ['Trim', v.trim],
    ['VIN', v.vin],
    // What the VIN says, labelled apart from what was typed (the year and make above), with its check digit.
    ['The VIN says', v.decoded ? decodedVinText(v.decoded) : ''],
    ['Check digit', v.decoded ? (v.decoded.checkDigit === 'valid' ? 'Correct' : 'Not verified (VIN from outside North America)') : ''],
    ['Plate', v.plate ? `${v.plate}${v.plateState ? ` (${v.plateState})` : ''}` : ''],
    ['Color', v.color],
    ['Last mileage', v.lastMileage === null ? '' : formatMileage(v.lastMileage)],
    ['Notes', v.notes],
  ];
  return (
    <div className="grid gap-6">
      <BackLink to={customerPath(instance, v.customerId)}>Back to {v.customerName || 'the customer'}</BackLink>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{v.label}</h1>
          <p className="text-muted-foreground">
            Vehicle of{' '}
            <Link className="text-primary underline-offset-4 hover:underline" to={customerPath(instance, v.customerId)}>
              {v.customerName || 'a customer'}
            </Link>
          </p>
        </div>
        {canWrite && !editing ? (
          <Button variant="outline" onClick={() => setEditing(true)}>
            Edit vehicle
          </Button>
        ) : null}
      </div>
      {v.vinWarning ? <Alert variant="info">{v.vinWarning}</Alert> : null}
      {yearDisagreement ? <Alert variant="info">{yearDisagreement}</Alert> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            {editing ? (
              <VehicleForm
                instance={instance}
                customerId={v.customerId}
                vehicle={v}
                onSaved={() => setEditing(false)}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                {facts
                  .filter(([, value]) => value !== '')
                  .map(([label, value]) => (
                    <div key={label} className="contents">
                      <dt className="text-muted-foreground">{label}</dt>
                      <dd className={label === 'VIN' ? 'font-mono' : 'whitespace-pre-wrap'}>{value}</dd>
                    </div>
                  ))}
              </dl>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Service history</CardTitle>
            <CardDescription>
              Visits booked ahead, then every job, estimate, invoice, note and change on this vehicle, newest first.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {history.isPending ? <Spinner label="Loading history..." /> : null}
            {history.isError ? <p className="text-sm text-destructive">Could not load the history.</p> : null}
            {upcoming.length > 0 ? (
              <section className="mb-4 grid gap-2" aria-labelledby="vehicle-upcoming">
                <h3 id="vehicle-upcoming" className="text-sm font-medium">
                  Upcoming
                </h3>
                <ol className="grid gap-3" aria-label="Upcoming visits">
                  {upcoming.map((item) => (
                    <HistoryEntry key={`${item.kind}-${item.id}`} item={item} jobPath={jobPath} />
                  ))}
                </ol>
              </section>
            ) : null}
            <ol className="grid gap-3" aria-label="Service history">
              {past.map((item) => (
                <HistoryEntry key={`${item.kind}-${item.id}`} item={item} jobPath={jobPath} />
              ))}
            </ol>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function HistoryEntry({ item, jobPath }: { item: VehicleHistoryItem; jobPath: (jobId: string) => string }) {
  const when = item.upcoming && item.appointment ? item.appointment : item.at;
  return (
    <li className="grid gap-0.5 border-l-2 pl-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {item.jobId ? (
          <Link className="font-medium text-primary underline-offset-4 hover:underline" to={jobPath(item.jobId)}>
            {item.title}
          </Link>
        ) : (
          <span className="font-medium">{item.title}</span>
        )}
        <time className="text-xs text-muted-foreground" dateTime={when}>
          {item.upcoming ? `Appointment ${formatDateTime(when)}` : formatDateTime(when)}
        </time>
      </div>
      {item.kind !== 'vehicle' ? (
        <p className="text-sm">
          {[item.stage, item.quote ? `$${item.quote}` : '', mileage(item.mileageIn, item.mileageOut)].filter(Boolean).join(' · ')}
        </p>
      ) : null}
      {item.detail ? <p className="text-sm text-muted-foreground">{item.detail}</p> : null}
      <p className="text-xs text-muted-foreground">by {item.by}</p>
    </li>
  );
}

function mileage(inValue: number | null, outValue: number | null): string {
  const format = (value: number | null) => (value === null ? '—' : formatMileage(value));
  if (inValue === null && outValue === null) return '';
  return `Mileage ${format(inValue)} in, ${format(outValue)} out`;
}
