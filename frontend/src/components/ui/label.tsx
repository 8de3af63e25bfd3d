import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** `htmlFor` is required so the label names its input. */
export function Label({ className, htmlFor, ...props }: LabelHTMLAttributes<HTMLLabelElement> & { htmlFor: string }) {
  return <label htmlFor={htmlFor} className={cn('text-sm font-medium leading-none text-foreground', className)} {...props} />;
}
