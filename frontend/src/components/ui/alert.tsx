import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/**
 * A live region for messages. Keep it mounted and change its children, so screen readers
 * announce new text; it renders nothing visible while empty.
 */
export function Alert({
  className,
  variant = 'destructive',
  children,
  ...props
}: HTMLAttributes<HTMLDivElement> & { variant?: 'destructive' | 'info' }) {
  const empty = children === null || children === undefined || children === false || children === '';
  return (
    <div
      role="alert"
      className={cn(
        empty ? 'hidden' : 'rounded-md border px-3 py-2 text-sm',
        !empty && variant === 'destructive' && 'border-destructive/40 bg-destructive/10 text-destructive',
        !empty && variant === 'info' && 'bg-muted text-foreground',
        className,
      )}
      {...props}
    >
      {children}
    </div>
  );
}
