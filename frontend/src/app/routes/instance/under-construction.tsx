import { usePageTitle } from '@/lib/use-page-title';

/**
 * Stand-in for an instance screen that is still being built. Each screen has its own route
 * file (pipeline-page.tsx, customers-page.tsx, …) that renders this; replace the file's
 * `Component` with the real screen, the router needs no change.
 */
export function UnderConstruction({ title, subtitle }: { title: string; subtitle: string }) {
  usePageTitle(title);
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        <p className="text-muted-foreground">{subtitle}</p>
      </div>
      <p className="rounded-xl border border-dashed bg-muted/40 p-6 text-sm text-muted-foreground">
        This screen is being built and will be here soon.
      </p>
    </div>
  );
}
