import { cn } from '@/lib/cn';

/** A status region with a spinning ring; `label` is read out and, unless `hideLabel`, shown. */
export function Spinner({
  label = 'Loading...',
  hideLabel = false,
  className,
  size = 'md',
}: {
  label?: string;
  hideLabel?: boolean;
  className?: string;
  size?: 'sm' | 'md' | 'lg';
}) {
  const ring = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-[3px]' }[size];
  return (
    <div role="status" aria-live="polite" className={cn('inline-flex items-center gap-3 text-muted-foreground', className)}>
      <span aria-hidden="true" className={cn('animate-spin rounded-full border-current border-r-transparent', ring)} />
      <span className={hideLabel ? 'sr-only' : 'text-sm'}>{label}</span>
    </div>
  );
}

/** Centres a spinner in the page area, for route and session loading. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}
