import type { CrmInstanceView } from '@crm/projections/platform';
import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SparklesIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useCrmInstances } from '../api/get-crm-instances';
import { reservedInstance } from '../utils/selectable-instances';
import { InstanceFacts } from './crm-instance-card';
import { EditInstanceDialog } from './edit-instance-dialog';
import { ManageInstanceUsersDialog } from './manage-instance-users-dialog';

/** The provider's own instance: opened at /maven, never listed with the shops' instances. */
export function ProviderInstanceCard({ instance }: { instance: CrmInstanceView }) {
  return (
    <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5"
        >
          <SparklesIcon />
        </span>
        <div className="grid min-w-0 gap-1">
          <h3 className="text-base leading-tight font-semibold">{instance.displayName}</h3>
          <InstanceFacts instance={instance} />
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <EditInstanceDialog instance={instance} />
        <ManageInstanceUsersDialog instance={instance} />
        <Link to={paths.maven} className={buttonVariants({ size: 'sm' })}>
          Open<span className="sr-only"> {instance.displayName}</span>
        </Link>
      </div>
    </Card>
  );
}

/** "Provider's CRM (maven)" on the selection page; nothing until the list has loaded with it. */
export function ProviderInstanceSection() {
  const { data } = useCrmInstances();
  const instance = data ? reservedInstance(data) : undefined;
  if (!instance) return null;
  return (
    <section aria-labelledby="provider-instance-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h2 id="provider-instance-heading" className="text-lg font-semibold">
          Provider's CRM (maven)
        </h2>
        <p className="text-sm text-muted-foreground">Your own CRM, kept out of the shops' list. Give it its first admin here.</p>
      </div>
      <ProviderInstanceCard instance={instance} />
    </section>
  );
}
