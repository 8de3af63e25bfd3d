import type { JobDetail } from '@crm/projections/contract';
import { useState } from 'react';
import { useShopSettings } from '@/lib/shop-settings';
import type { LoadedJob } from '../../api/get-job';
import { userChoiceName, useUserChoices } from '@/lib/api/user-choices';
import { shopRates } from '../../utils/line-draft';
import { LinesEditor } from '../lines/lines-editor';
import { EstimatePanel } from './estimate-panel';
import { InvoicePanel } from './invoice-panel';
import { PaymentsPanel } from './payments-panel';

/**
 * A saved job's repair order in its dialog: the lines (edited in place), the totals, the
 * estimate sent to the customer, the invoice and the payments. Each action is a command of
 * its own, saved at once; `loaded` is the newest copy of the job (live updates included).
 */
export function RepairOrderSection({
  instance,
  loaded,
  detail,
  canWrite,
  onSaved,
}: {
  instance: string;
  loaded: LoadedJob;
  detail: JobDetail;
  canWrite: boolean;
  /** After a command: the job it answered, and the ETag the command was sent with. */
  onSaved: (saved: LoadedJob, sentWith: string) => void;
}) {
  const settings = useShopSettings(instance);
  const users = useUserChoices(instance);
  const rates = settings.data ? shopRates(settings.data.settings) : null;
  const technicians = (users.data ?? []).map(userChoiceName);
  // While a line is being saved the job is about to change: an estimate sent or an invoice made
  // then would freeze the lines as they were (or be refused as sent against an older job).
  const [linesSaving, setLinesSaving] = useState(false);
  const panel = { instance, job: detail, loaded, canWrite, onSaved, linesSaving };
  return (
    <div className="grid gap-4 border-t pt-4">
      <LinesEditor
        instance={instance}
        loaded={loaded}
        detail={detail}
        readOnly={!canWrite}
        rates={rates}
        technicians={technicians}
        onSaved={onSaved}
        onBusyChange={setLinesSaving}
      />
      <div className="grid gap-3 md:grid-cols-2">
        <EstimatePanel {...panel} />
        <InvoicePanel {...panel} />
      </div>
      <PaymentsPanel {...panel} />
    </div>
  );
}
