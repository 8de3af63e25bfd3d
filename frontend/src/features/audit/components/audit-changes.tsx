import type { AuditFieldChange } from '@crm/projections/audit';
import { auditFieldLabel, EMPTY_AUDIT_VALUE, formatAuditValue } from '../utils/audit-format';

/** Each changed field: old → new (a value that appears from nothing shows only the new one). */
export function AuditChanges({ changes }: { changes: AuditFieldChange[] }) {
  if (changes.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5">
      {changes.map((change, index) => {
        const before = formatAuditValue(change.field, change.oldValue);
        const after = formatAuditValue(change.field, change.newValue);
        return (
          <li key={`${change.field}-${index}`} className="break-words">
            <span className="text-muted-foreground">{auditFieldLabel(change.field)}: </span>
            {before !== EMPTY_AUDIT_VALUE ? (
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
