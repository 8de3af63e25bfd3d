import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { fieldControlProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import type { CustomerSuggestion } from '@crm/projections/contract';
import { FAILED_TO_SEARCH_CUSTOMERS, useCustomerSuggestions } from '../api/search-customer-suggestions';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { summariseVehicles } from '../utils/vehicle-badges';

/** The list hides this long after the field loses focus, so a click on it still lands. */
export const SUGGESTIONS_HIDE_DELAY_MS = 200;
const SUGGEST_DEBOUNCE_MS = 200;

/**
 * The Name box with the customer autocomplete (ARIA combobox). It searches only while
 * there is text and the user is typing in it; choosing a suggestion links the customer.
 */
export function CustomerNameField({
  id,
  instance,
  value,
  onChange,
  onChoose,
  error,
}: {
  id: string;
  instance: string;
  value: string;
  onChange: (value: string) => void;
  onChoose: (customer: CustomerSuggestion) => void;
  /** The field's error under it: the box is marked invalid (red border) like the other fields. */
  error?: string | undefined;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const query = useDebouncedValue(value.trim(), SUGGEST_DEBOUNCE_MS);
  const suggestions = useCustomerSuggestions(instance, open ? query : '');
  const items = open && value.trim() ? (suggestions.data ?? []) : [];
  const failed = open && value.trim() !== '' && suggestions.isError;
  const expanded = items.length > 0 || failed;

  useEffect(() => () => void (hideTimer.current && clearTimeout(hideTimer.current)), []);
  useEffect(() => setActive(-1), [suggestions.data]);

  const choose = (customer: CustomerSuggestion) => {
    setOpen(false);
    onChoose(customer);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && items.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % items.length);
    } else if (event.key === 'ArrowUp' && items.length > 0) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? items.length - 1 : index - 1));
    } else if (event.key === 'Enter' && expanded && active >= 0 && items[active]) {
      event.preventDefault();
      choose(items[active]);
    } else if (event.key === 'Escape' && expanded) {
      // The dialog leaves Escape alone while the list is open (see EntryDialog).
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <Input
        {...fieldControlProps(id, { error })}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
        }}
        onKeyDown={handleKeyDown}
        onBlur={() => {
          hideTimer.current = setTimeout(() => setOpen(false), SUGGESTIONS_HIDE_DELAY_MS);
        }}
        onFocus={() => hideTimer.current && clearTimeout(hideTimer.current)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Customers"
        className={cn(
          'absolute top-full right-0 left-0 z-20 mt-1 max-h-64 overflow-y-auto rounded-lg border bg-card p-1 text-card-foreground shadow-lg',
          !expanded && 'hidden',
        )}
      >
        {failed ? <li className="px-2 py-2 text-sm text-destructive">{FAILED_TO_SEARCH_CUSTOMERS}</li> : null}
        {items.map((customer, index) => {
          const badges = summariseVehicles(customer.vehicles);
          return (
            <li
              key={customer.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // The pointer chooses on press and keeps the focus in the box; the keyboard chooses
              // from the box itself (arrows, Enter: aria-activedescendant), so no key listener here.
              onMouseDown={(event) => {
                event.preventDefault();
                if (event.button === 0) choose(customer);
              }}
              onMouseEnter={() => setActive(index)}
              className={cn(
                'grid cursor-pointer gap-1 rounded-md px-2 py-2 text-sm',
                index === active && 'bg-accent text-accent-foreground',
              )}
            >
              <span className="flex items-baseline justify-between gap-2">
                <span className="font-medium">{customer.name || 'Unnamed Customer'}</span>
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                  #{customer.number} {customer.phone}
                </span>
              </span>
              {badges.shown.length > 0 ? (
                <span className="flex flex-wrap gap-1">
                  {badges.shown.map((vehicle) => (
                    <Badge key={vehicle} variant="secondary">
                      {vehicle}
                    </Badge>
                  ))}
                  {badges.more ? <Badge variant="outline">{badges.more}</Badge> : null}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
