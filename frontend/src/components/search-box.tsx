import { SearchIcon, XIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';

/**
 * A list's search field: a search icon, a label for screen readers, Escape and a clear button
 * to empty it (the clear button hands the focus back to the field). The browser's own clear
 * button is hidden so there is one.
 */
export function SearchBox({
  id,
  label,
  value,
  onChange,
  placeholder,
  title,
  className,
}: {
  id: string;
  /** What the field searches, for screen readers ("Search customers"). */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** What it searches by, shown on hover. */
  title: string;
  /** The field's width. */
  className?: string;
}) {
  return (
    <div className={cn('relative w-full', className)}>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) {
            event.preventDefault();
            onChange('');
          }
        }}
        placeholder={placeholder}
        title={title}
        autoComplete="off"
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
        maxLength={200}
      />
      {value ? (
        <button
          type="button"
          onClick={() => {
            onChange('');
            document.getElementById(id)?.focus();
          }}
          className="absolute top-1/2 right-1.5 -translate-y-1/2 rounded-md p-1.5 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <XIcon className="size-4" />
          <span className="sr-only">Clear search</span>
        </button>
      ) : null}
    </div>
  );
}
