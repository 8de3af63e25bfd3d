import { AUDIT_ENTITY_TYPES } from '@crm/projections/audit';
import type { UserChoice } from '@crm/projections/identity';
import { Field } from '@/components/ui/field';
import { SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { AuditFilters } from '../utils/audit-filters';
import { entityTypeLabel } from '../utils/audit-format';

const ANY = 'any';

/** Entity, user, date range and text; every change applies at once (the text after a pause). */
export function AuditFiltersBar({
  filters,
  users,
  onChange,
  rangeError,
}: {
  filters: AuditFilters;
  users: UserChoice[];
  onChange: (next: AuditFilters) => void;
  rangeError?: string;
}) {
  const set = (patch: Partial<AuditFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr_1fr]">
      <Field id="audit-q" label="Search" className="sm:col-span-2 lg:col-span-1">
        <div className="relative">
          <SearchIcon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="audit-q"
            type="search"
            value={filters.q}
            onChange={(event) => set({ q: event.target.value })}
            placeholder="Search what happened..."
            className="pl-9"
            maxLength={200}
          />
        </div>
      </Field>
      <Field id="audit-entity" label="Entity">
        <Select value={filters.entityType || ANY} onValueChange={(value) => set({ entityType: value === ANY ? '' : value })}>
          <SelectTrigger id="audit-entity">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>All entities</SelectItem>
            {AUDIT_ENTITY_TYPES.map((type) => (
              <SelectItem key={type} value={type}>
                {entityTypeLabel(type)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </Field>
      <Field id="audit-user" label="User">
        <Select value={filters.userId || ANY} onValueChange={(value) => set({ userId: value === ANY ? '' : value })}>
          <SelectTrigger id="audit-user">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>All users</SelectItem>
            {users.map((user) => (
              <SelectItem key={user.id} value={user.id}>
                {user.displayName.trim() || user.username}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </Field>
      <Field id="audit-from" label="From">
        <Input
          id="audit-from"
          type="date"
          value={filters.fromDate}
          max={filters.toDate || undefined}
          onChange={(event) => set({ fromDate: event.target.value })}
        />
      </Field>
      <Field id="audit-to" label="To" error={rangeError}>
        <Input
          id="audit-to"
          type="date"
          value={filters.toDate}
          min={filters.fromDate || undefined}
          onChange={(event) => set({ toDate: event.target.value })}
          aria-invalid={rangeError ? true : undefined}
          aria-describedby={rangeError ? 'audit-to-error' : undefined}
        />
      </Field>
    </div>
  );
}
