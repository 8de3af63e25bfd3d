import { entityTypeLabel } from '../utils/audit-format';
import { formatDateTime, localizeTimesInText } from '@crm/projections/contract';
import type { AuditEntry } from '@crm/projections/audit';
import { Badge } from '@/components/ui/badge';
import { useCustomerNames } from '@/lib/api/customer-names';
import { AuditChanges } from './audit-changes';

function actorName(entry: AuditEntry): string {
  if (entry.actor.displayName) return entry.actor.displayName;
  return entry.actor.kind === 'system' ? 'System' : entry.actor.kind === 'superadmin' ? 'Provider' : 'Unknown user';
}

/** The customers the entries link jobs to (old and new), whose names the changes show. */
function linkedCustomerIds(entries: AuditEntry[]): string[] {
  return entries.flatMap((entry) =>
    entry.changes
      .filter((change) => change.field === 'customerId')
      .flatMap((change) =>
        [change.oldValue, change.newValue].filter((value): value is string => typeof value === 'string' && value !== ''),
      ),
  );
}

/** When, Who, What, Changes: a table on wide screens, a list of cards on narrow ones. */
export function AuditTable({ instance, entries }: { instance: string; entries: AuditEntry[] }) {
  const customerNames = useCustomerNames(instance, linkedCustomerIds(entries));
  return (
    <>
      <div className="hidden overflow-x-auto rounded-xl border bg-card shadow-sm md:block">
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b bg-muted/50 text-left text-xs font-medium tracking-wide text-muted-foreground uppercase">
              <th scope="col" className="px-3 py-3">
                When
              </th>
              <th scope="col" className="px-3 py-3">
                Who
              </th>
              <th scope="col" className="px-3 py-3">
                What
              </th>
              <th scope="col" className="px-3 py-3">
                Changes
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} className="border-b align-top last:border-0">
                <td className="px-3 py-3 text-xs whitespace-nowrap text-muted-foreground">
                  <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
                </td>
                <td className="px-3 py-3 whitespace-nowrap">{actorName(entry)}</td>
                <td className="max-w-sm px-3 py-3">
                  <div className="grid gap-1">
                    <Badge variant="secondary" className="justify-self-start">
                      {entityTypeLabel(entry.entityType)}
                    </Badge>
                    <span>{localizeTimesInText(entry.summary)}</span>
                  </div>
                </td>
                <td className="max-w-md px-3 py-3 text-xs">
                  <AuditChanges changes={entry.changes} customerNames={customerNames} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="grid gap-3 md:hidden" aria-label="Audit entries">
        {entries.map((entry) => (
          <li key={entry.id} className="grid gap-2 rounded-xl border bg-card p-4 text-sm shadow-sm">
            <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
              <span>
                <span className="font-medium text-foreground">{actorName(entry)}</span> ·{' '}
                <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
              </span>
              <Badge variant="secondary">{entityTypeLabel(entry.entityType)}</Badge>
            </div>
            <p>{localizeTimesInText(entry.summary)}</p>
            {entry.changes.length > 0 ? (
              <div className="text-xs">
                <AuditChanges changes={entry.changes} customerNames={customerNames} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
