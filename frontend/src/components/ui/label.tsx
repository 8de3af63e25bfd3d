import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** Always pass `htmlFor` (or wrap the control) so the label names its input. */
export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium leading-none text-foreground', className)} {...props} />;
}
