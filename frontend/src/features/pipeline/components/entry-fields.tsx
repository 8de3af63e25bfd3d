import { type CustomerSuggestion, formatDateTime } from '@crm/projections/contract';
import { DURATION_CHOICES, JOB_LIMITS } from '@crm/projections/pipeline';
import type { ReactNode } from 'react';
import { ChoiceSelect } from '@/components/choice-select';
import { JobFields } from '@/components/job-form';
import { TextField } from '@/components/text-field';
import { Field } from '@/components/ui/field';
import { userChoiceName, useUserChoices } from '@/lib/api/user-choices';
import { vinFeedback } from '@/lib/vin-feedback';
import type { EntryForm, EntryTextField } from '../utils/entry-form';
import { CustomerNameField } from './customer-name-field';
import { VehicleChoiceChips } from './entry-footer';
import { JobVehicleFields } from './job-vehicle-fields';
import { LinkedCustomerHint } from './linked-customer-hint';

const fieldId = (field: keyof EntryForm) => `entry-${field}`;

/** What each box keeps of what is typed (the phone box formats itself). */
const SANITIZE: Partial<Record<EntryTextField, (value: string) => string>> = {
  vin: (value) => value.toUpperCase(),
};

/** The job's boxes the entry dialog shows, in its order; jobNumber, matches, vin, vehicle, createdAt and csr are its own. */
const ENTRY_LAYOUT = [
  'jobNumber',
  'name',
  'phone',
  'matches',
  'part',
  'makeModel',
  'vin',
  'vehicle',
  'quote',
  'createdAt',
  'csr',
  'jobType',
  'appointment',
  'duration',
  'tech',
  'notes',
] as const;

/** How a linked customer is described under the Name box. */
export interface LinkedCustomer {
  id: string;
  label: string;
  /** Known when just chosen; otherwise the hint reads it. */
  name?: string;
  /** The job's name when the customer was chosen in this dialog (a new job's name changed from it unlinks). */
  chosenName?: string;
}

/** The entry dialog's boxes: the job's shared ones (JobFields) with the entry's own between them. */
export function EntryFields({
  instance,
  form,
  change,
  fieldErrors,
  quoteProblem,
  itemized,
  linked,
  onUnlink,
  onChooseCustomer,
  vehicleChoices,
  matches,
}: {
  instance: string;
  form: EntryForm;
  change: (patch: Partial<EntryForm>) => void;
  /** The server's refusals that name a box. */
  fieldErrors: Partial<Record<keyof EntryForm, string>>;
  /** Why the quote as typed would be refused. */
  quoteProblem: string | undefined;
  /** The job has lines: the quote is their total, not typed. */
  itemized: boolean;
  linked: LinkedCustomer | null;
  onUnlink: () => void;
  onChooseCustomer: (customer: CustomerSuggestion) => void;
  /** The chosen customer's vehicles, when there are several to pick from. */
  vehicleChoices: readonly string[];
  /** The existing customers offered for the typed name or phone, under the Phone box. */
  matches: ReactNode;
}) {
  const users = useUserChoices(instance);
  const userChoices = (users.data ?? []).map((user) => ({ value: userChoiceName(user), label: userChoiceName(user) }));
  // Checked as typed like every VIN box. The job keeps its VIN text as typed (older jobs and
  // VINs from elsewhere stay saveable), so the box says the problem without blocking the save.
  const vin = vinFeedback(form.vin);
  const text = (field: EntryTextField) => (event: { target: { value: string } }) => {
    const sanitize = SANITIZE[field];
    change({ [field]: sanitize ? sanitize(event.target.value) : event.target.value });
  };

  return (
    <JobFields
      instance={instance}
      idPrefix="entry"
      values={form}
      onChange={change}
      layout={ENTRY_LAYOUT}
      own={{
        matches,
        jobNumber: (
          <TextField
            id={fieldId('jobNumber')}
            label="Job Number"
            error={fieldErrors.jobNumber}
            value={form.jobNumber}
            onChange={text('jobNumber')}
            placeholder="Auto-generated"
            maxLength={JOB_LIMITS.jobNumber}
            autoComplete="off"
          />
        ),
        vin: (
          <TextField
            id={fieldId('vin')}
            label="VIN"
            value={form.vin}
            onChange={text('vin')}
            error={fieldErrors.vin ?? vin.error}
            hint={vin.hint}
            maxLength={JOB_LIMITS.vin}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="font-mono uppercase"
          />
        ),
        vehicle: <JobVehicleFields instance={instance} form={form} errors={fieldErrors} onChange={change} />,
        createdAt: (
          <TextField
            id={fieldId('createdAt')}
            label="Date Created"
            value={formatDateTime(form.createdAt)}
            readOnly
            tabIndex={-1}
            className="bg-muted/50 text-muted-foreground"
          />
        ),
        csr: (
          <Field id={fieldId('csr')} label="CSR">
            <ChoiceSelect
              id={fieldId('csr')}
              value={form.csr}
              choices={userChoices}
              onChange={(csr) => change({ csr })}
              placeholder="Select CSR"
            />
          </Field>
        ),
      }}
      labels={{
        name: 'Name',
        phone: 'Phone',
        part: 'Part',
        makeModel: 'Vehicle',
        jobType: 'Job Type',
        tech: 'Tech',
        appointment: 'Appointment',
        duration: 'Duration',
        quote: 'Quote',
        notes: 'Notes',
      }}
      errors={{ part: fieldErrors.part, appointment: fieldErrors.appointment, quote: quoteProblem ?? fieldErrors.quote }}
      hints={{
        name: linked ? (
          <span className="flex flex-wrap items-center gap-x-2">
            <LinkedCustomerHint instance={instance} customerId={linked.id} name={linked.name} />
            <button type="button" className="font-medium text-primary underline-offset-4 hover:underline" onClick={onUnlink}>
              Unlink
            </button>
          </span>
        ) : undefined,
        makeModel:
          vehicleChoices.length > 1 ? (
            <VehicleChoiceChips vehicles={vehicleChoices} chosen={form.makeModel} onChoose={(makeModel) => change({ makeModel })} />
          ) : undefined,
        quote: itemized ? "The lines' total" : undefined,
      }}
      nameControl={({ id }) => (
        <CustomerNameField
          id={id}
          instance={instance}
          value={form.name}
          onChange={(name) => change({ name })}
          onChoose={onChooseCustomer}
        />
      )}
      durations={DURATION_CHOICES}
      empty={{
        jobType: { placeholder: 'Select job type' },
        tech: { placeholder: 'Select tech' },
        duration: { placeholder: 'Select duration' },
      }}
      quote={{ placeholder: '0.00', currency: true, readOnly: itemized }}
    />
  );
}
