import type { CrmInstanceView } from '@crm/projections/platform';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CarIcon, DownloadIcon, LayoutTemplateIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { instanceExportUrl } from '../api/instance-export-url';
import { EditInstanceDialog } from './edit-instance-dialog';
import { FeatureBadges } from './feature-badges';
import { InstanceActiveToggle } from './instance-active-toggle';
import { ManageInstanceUsersDialog } from './manage-instance-users-dialog';

/**
 * A card whose title link covers the whole card (one link, named by the title). Other controls
 * in it must sit above the link's overlay: give them (or a wrapper) `relative z-10`.
 */
function LinkCard({
  to,
  title,
  icon,
  children,
  className,
}: {
  to: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card
      className={cn(
        'relative flex h-full flex-col gap-3 p-5 transition-shadow hover:border-primary/50 hover:shadow-md',
        'has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-ring',
        className,
      )}
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5"
        >
          {icon}
        </span>
        <h3 className="min-w-0 pt-2 text-base leading-tight font-semibold">
          <Link to={to} className="outline-none after:absolute after:inset-0 after:rounded-xl">
            {title}
          </Link>
        </h3>
      </div>
      {children}
    </Card>
  );
}

/** The template every new instance starts from: it leads to the CRM builder, to start one from it. */
export function CrmTemplateCard() {
  return (
    <LinkCard to={paths.crmBuilder} title="CRM Template" icon={<LayoutTemplateIcon />} className="border-dashed">
      <p className="text-sm text-muted-foreground">The base CRM every new instance starts from.</p>
      <p className="mt-auto text-sm font-medium text-primary">Start a new CRM from the template →</p>
    </LinkCard>
  );
}

/** An instance's description (when it has one), its subdomain, and Inactive when it is. */
export function InstanceFacts({ instance }: { instance: CrmInstanceView }) {
  return (
    <>
      {instance.description ? <p className="line-clamp-3 text-sm text-muted-foreground">{instance.description}</p> : null}
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted-foreground">Subdomain</span>
        <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{instance.subdomain}</code>
        {instance.isActive ? null : <Badge variant="destructive">Inactive</Badge>}
      </p>
    </>
  );
}

export function CrmInstanceCard({ instance }: { instance: CrmInstanceView }) {
  return (
    <LinkCard to={paths.instance(instance.subdomain)} title={instance.displayName} icon={<CarIcon />}>
      <InstanceFacts instance={instance} />
      <div className="mt-auto pt-1">
        <FeatureBadges features={instance.features} />
      </div>
      {/* Above the title link's overlay, so it gets its own clicks and focus. */}
      <div className="relative z-10 flex flex-wrap items-center justify-between gap-2 border-t pt-3">
        <div className="flex flex-wrap items-center gap-2">
          <Link to={paths.instance(instance.subdomain)} className={buttonVariants({ size: 'sm' })}>
            Open<span className="sr-only"> {instance.displayName}</span>
          </Link>
          <EditInstanceDialog instance={instance} />
          <ManageInstanceUsersDialog instance={instance} />
          <a
            href={instanceExportUrl(instance.id)}
            download
            className={buttonVariants({ size: 'sm', variant: 'outline' })}
            title="The instance's whole history as JSONL (backup, or to move it to another server)"
          >
            <DownloadIcon />
            Download export<span className="sr-only"> of {instance.displayName}</span>
          </a>
        </div>
        <InstanceActiveToggle instance={instance} />
      </div>
    </LinkCard>
  );
}
