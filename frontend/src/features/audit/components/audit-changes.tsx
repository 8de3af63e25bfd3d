import { auditFieldLabel } from '../utils/audit-format';
import { EMPTY_VALUE, formatChangeValue } from '@crm/projections/contract';
import type { AuditFieldChange } from '@crm/projections/audit';

/**
 * Each changed field: old → new (a value that appears from nothing shows only the new one);
 * a linked customer by name (`customerNames`, by id).
 */
export function AuditChanges({
  changes,
  customerNames,
}: {
  changes: AuditFieldChange[];
  customerNames: ReadonlyMap<string, string | null>;
}) {
  if (changes.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5">
      {changes.map((change, index) => {
        const before = formatChangeValue(change.field, change.oldValue, customerNames);
        const after = formatChangeValue(change.field, change.newValue, customerNames);
        return (
          <li key={`${change.field}-${index}`}>
            <span className="text-muted-foreground">{auditFieldLabel(change.field)}: </span>
            {before !== EMPTY_VALUE ? (
              <>
                <del className="text-muted-foreground decoration-muted-foreground/60">{before}</del>
                <span aria-hidden="true" className="px-1 text-muted-foreground">
                  →
                </span>
                <span className="sr-only"> changed to </span>
              </>
            ) : null}
            <ins className="font-medium no-underline">{after}</ins>
          </li>
        );
      })}
    </ul>
  );
}
