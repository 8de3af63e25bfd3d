import { formatDate } from '@crm/projections/contract';
import type { CustomerView } from '@crm/projections/customers';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { MailIcon, MapPinIcon, PencilIcon, PhoneIcon, TrashIcon } from '@/components/ui/icons';
import { CARD_APPOINTMENTS_SHOWN, CARD_INVOICES_SHOWN } from '../constants/customer-texts';
import { customerDisplayName } from '../utils/customer-display';
import { moreLabel, summarizeList } from '../utils/summarize-list';

function Detail({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-start gap-2 text-sm">
      <dt className="mt-0.5 shrink-0 text-muted-foreground [&_svg]:size-4">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <h4 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{title}</h4>
      {children}
    </div>
  );
}

/**
 * One customer in the list: name, number, masked phone, address, vehicles,
 * the first past appointments and invoices, created date, and the allowed actions.
 */
export function CustomerCard({
  customer,
  detailPath,
  onEdit,
  onDelete,
}: {
  customer: CustomerView;
  detailPath: string;
  /** Absent when the user may not change customers. */
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const name = customerDisplayName(customer);
  const services = summarizeList(customer.pastAppointments, CARD_APPOINTMENTS_SHOWN);
  const invoices = summarizeList(customer.invoices, CARD_INVOICES_SHOWN);
  const vehicles = customer.vehicleList;
  const created = formatDate(customer.createdAt);

  return (
    <Card className="flex h-full min-w-0 flex-col gap-4 p-5" data-testid="customer-card">
      <div className="flex items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <h3 className="text-base leading-tight font-semibold">
            <Link to={detailPath} className={customer.name ? 'hover:underline' : 'text-muted-foreground italic hover:underline'}>
              {name}
            </Link>
          </h3>
          <p className="text-xs text-muted-foreground">Customer ID: #{customer.number}</p>
        </div>
        {onEdit || onDelete ? (
          <div className="-mt-1.5 -mr-2 flex shrink-0">
            {onEdit ? (
              <Button variant="ghost" size="icon" onClick={onEdit} className="size-9">
                <PencilIcon />
                <span className="sr-only">Edit {name}</span>
              </Button>
            ) : null}
            {onDelete ? (
              <Button variant="ghost" size="icon" onClick={onDelete} className="size-9 text-destructive hover:text-destructive">
                <TrashIcon />
                <span className="sr-only">Delete {name}</span>
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      {customer.phone || customer.email || customer.address ? (
        <dl className="grid gap-1.5">
          {customer.phone ? (
            <Detail icon={<PhoneIcon />} label="Phone">
              <span className="font-mono tabular-nums">{customer.phone}</span>
            </Detail>
          ) : null}
          {customer.email ? (
            <Detail icon={<MailIcon />} label="Email">
              {customer.email}
            </Detail>
          ) : null}
          {customer.address ? (
            <Detail icon={<MapPinIcon />} label="Address">
              {customer.address}
            </Detail>
          ) : null}
        </dl>
      ) : null}

      {vehicles.length > 0 ? (
        <Section title="Vehicles">
          <ul className="flex flex-wrap gap-1.5">
            {vehicles.map((vehicle, index) => (
              <li key={`${vehicle}-${index}`} className="max-w-full">
                <Badge className="max-w-full whitespace-normal!">{vehicle}</Badge>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {services.shown.length > 0 ? (
        <Section title="Recent Services">
          <ul className="grid gap-0.5 text-sm">
            {services.shown.map((service, index) => (
              <li key={`${service}-${index}`}>{service}</li>
            ))}
            {services.hidden > 0 ? (
              <li className="text-xs text-muted-foreground">{moreLabel(services.hidden, { ellipsis: true })}</li>
            ) : null}
          </ul>
        </Section>
      ) : null}

      {invoices.shown.length > 0 ? (
        <Section title="Invoice Numbers">
          <ul className="flex flex-wrap items-center gap-1.5">
            {invoices.shown.map((invoice, index) => (
              <li key={`${invoice}-${index}`}>
                <Badge variant="outline" className="font-mono">
                  {invoice}
                </Badge>
              </li>
            ))}
            {invoices.hidden > 0 ? <li className="text-xs text-muted-foreground">{moreLabel(invoices.hidden)}</li> : null}
          </ul>
        </Section>
      ) : null}

      {created ? <p className="mt-auto border-t pt-3 text-xs text-muted-foreground">Created {created}</p> : null}
    </Card>
  );
}
