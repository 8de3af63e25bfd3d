import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export type BadgeVariant = 'default' | 'secondary' | 'outline' | 'success' | 'destructive';

const variants: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-primary/12 text-primary dark:bg-primary/20',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  outline: 'text-muted-foreground',
  success: 'border-transparent bg-success/12 text-success dark:bg-success/20',
  // A deeper tint in dark would take the light red text under 4.5:1 on a card (4.25:1); 12 % keeps it above.
  destructive: 'border-transparent bg-destructive/12 text-destructive',
};

export function Badge({ className, variant = 'default', ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
