import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Label } from './label';

/** Label + control + optional hint and error, wired for assistive tech by `id`. */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Props for the control inside a Field: aria-invalid and aria-describedby to match. */
export function fieldControlProps(id: string, { hint, error }: { hint?: boolean; error?: string | undefined }) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

export function Fieldset({ className, legend, children, ...props }: HTMLAttributes<HTMLFieldSetElement> & { legend: ReactNode }) {
  return (
    <fieldset className={cn('grid gap-4', className)} {...props}>
      <legend className="mb-1 text-base font-semibold">{legend}</legend>
      {children}
    </fieldset>
  );
}
