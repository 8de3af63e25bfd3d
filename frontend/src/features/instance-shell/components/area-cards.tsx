import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import type { Area } from './dashboard-areas';

function ComingSoonBadge() {
  return <Badge variant="outline">Coming Soon</Badge>;
}

export function AreaCard({ area, enabled, count, note }: { area: Area; enabled: boolean; count: string | null; note?: ReactNode }) {
  const headingId = `area-${area.feature}-heading`;
  return (
    <Card className={cn('flex flex-col', !enabled && 'border-dashed bg-muted/40 shadow-none')} aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <AreaIcon icon={area.icon} enabled={enabled} />
          {enabled ? note : <ComingSoonBadge />}
        </div>
        <CardTitle as="h3" id={headingId} className={cn('pt-2 text-base', !enabled && 'text-muted-foreground')}>
          {area.title}
        </CardTitle>
        <CardDescription>{area.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        {enabled && count ? (
          <p className="text-2xl font-semibold tracking-tight" data-testid={`count-${area.feature}`}>
            {count}
          </p>
        ) : null}
      </CardContent>
      <CardFooter className="flex-wrap">
        {area.actions.map((action, index) =>
          enabled ? (
            <Link
              key={action.to}
              to={action.to}
              className={buttonVariants({ variant: index === 0 ? 'primary' : 'outline', size: 'sm', className: 'flex-1' })}
            >
              {action.label}
            </Link>
          ) : (
            <Button key={action.to} variant="outline" size="sm" disabled className="flex-1">
              {action.label}
            </Button>
          ),
        )}
      </CardFooter>
    </Card>
  );
}

/** The /maven home's tiles. */
export function Tile({ area, enabled }: { area: Area; enabled: boolean }) {
  const [primary] = area.actions;
  return (
    <Card
      className={cn(
        'relative flex items-center gap-3 p-4 transition-colors',
        enabled ? 'hover:bg-accent/50' : 'border-dashed bg-muted/40 shadow-none',
      )}
    >
      <AreaIcon icon={area.icon} enabled={enabled} className="shrink-0" />
      <h3 className="min-w-0 flex-1 font-semibold">
        {enabled && primary ? (
          <Link
            to={primary.to}
            className="outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
          >
            {area.tile}
          </Link>
        ) : (
          <span className="text-muted-foreground">{area.tile}</span>
        )}
      </h3>
      {enabled ? null : <ComingSoonBadge />}
    </Card>
  );
}

/** An area's icon in its tinted square: primary when the area is on, muted when it is coming soon. */
function AreaIcon({ icon, enabled, className }: { icon: ReactNode; enabled: boolean; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-10 items-center justify-center rounded-lg [&_svg]:size-5',
        enabled ? 'bg-primary/10 text-primary' : 'bg-muted text-muted-foreground',
        className,
      )}
    >
      {icon}
    </span>
  );
}
