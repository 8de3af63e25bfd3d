import { formatDateTime } from '@crm/projections/contract';
import { parseList, type CustomerRecord } from '@crm/projections/customers';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { CUSTOMER_FIELD_LABELS } from '../constants/customer-texts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

const none = <span className="text-muted-foreground">—</span>;

function ListValue({ value, badges = false }: { value: string | string[]; badges?: boolean }) {
  const items = parseList(value);
  if (items.length === 0) return none;
  if (badges) {
    return (
      <ul className="flex flex-wrap gap-1.5">
        {items.map((item, index) => (
          <li key={`${item}-${index}`} className="max-w-full">
            <Badge className="max-w-full truncate">{item}</Badge>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="grid gap-0.5">
      {items.map((item, index) => (
        <li key={`${item}-${index}`}>{item}</li>
      ))}
    </ul>
  );
}

/** What the customer agreed to be sent; a customer read as it was at a moment has no consent fields. */
function ConsentValue({ customer }: { customer: CustomerRecord }) {
  if (customer.emailConsent === undefined || customer.smsConsent === undefined) return none;
  const channels = [
    { label: 'E-mail', on: customer.emailConsent },
    { label: 'Text messages', on: customer.smsConsent },
  ];
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Consent to messages">
      {channels.map((channel) => (
        <li key={channel.label}>
          <Badge variant={channel.on ? 'success' : 'outline'}>
            {channel.label}: {channel.on ? 'yes' : 'no'}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/**
 * Every field of one customer, the phone whole, and its consent to messages (a single-record answer).
 * `withVehicles` false leaves out the Vehicles row, for a page that lists the vehicles on their own.
 */
export function CustomerDetails({ customer, withVehicles = true }: { customer: CustomerRecord; withVehicles?: boolean }) {
  return (
    <dl className="divide-y">
      <Row label={CUSTOMER_FIELD_LABELS.phone}>
        {customer.phone ? <span className="font-mono tabular-nums">{customer.phone}</span> : none}
      </Row>
      <Row label={CUSTOMER_FIELD_LABELS.email}>
        {customer.email ? (
          <a href={`mailto:${customer.email}`} className="text-primary underline-offset-4 hover:underline">
            {customer.email}
          </a>
        ) : (
          none
        )}
      </Row>
      <Row label="Messages">
        <ConsentValue customer={customer} />
      </Row>
      <Row label={CUSTOMER_FIELD_LABELS.address}>{customer.address || none}</Row>
      {withVehicles ? (
        <Row label={CUSTOMER_FIELD_LABELS.vehicles}>
          <ListValue value={customer.vehicleList.length > 0 ? customer.vehicleList : customer.vehicles} badges />
        </Row>
      ) : null}
      <Row label={CUSTOMER_FIELD_LABELS.pastAppointments}>
        <ListValue value={customer.pastAppointments} />
      </Row>
      <Row label={CUSTOMER_FIELD_LABELS.invoices}>
        <ListValue value={customer.invoices} />
      </Row>
      <Row label={CUSTOMER_FIELD_LABELS.notes}>{customer.notes ? <span className="whitespace-pre-line">{customer.notes}</span> : none}</Row>
      <Row label="Created">
        {formatDateTime(customer.createdAt, { seconds: true })}
        {customer.createdBy ? ` by ${customer.createdBy}` : ''}
      </Row>
      <Row label="Last modified">
        {formatDateTime(customer.lastModifiedAt, { seconds: true })}
        {customer.lastModifiedBy ? ` by ${customer.lastModifiedBy}` : ''}
      </Row>
    </dl>
  );
}
