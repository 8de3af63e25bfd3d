import type { InputHTMLAttributes, ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * A native checkbox in a bordered tile. The label names it; the description is attached with
 * aria-describedby; a click anywhere on the tile toggles it.
 */
export function Checkbox({
  id,
  label,
  description,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> & { id: string; label: ReactNode; description?: ReactNode }) {
  return (
    <div
      className={cn(
        'relative flex items-start gap-3 rounded-lg border p-3 hover:bg-accent/50 has-[:checked]:border-primary/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        className,
      )}
    >
      <input
        id={id}
        type="checkbox"
        aria-describedby={description ? `${id}-description` : undefined}
        className="relative z-10 mt-0.5 size-4 shrink-0 accent-primary focus:outline-none"
        {...props}
      />
      <div className="grid gap-0.5">
        <label htmlFor={id} className="cursor-pointer text-sm leading-tight font-medium after:absolute after:inset-0">
          {label}
        </label>
        {description ? (
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
