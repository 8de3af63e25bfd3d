import { formatDuration } from '@crm/projections/contract';
import { JOB_LIMITS, JOB_TYPES } from '@crm/projections/pipeline';
import { Fragment, type ReactNode } from 'react';
import { type Choice, ChoiceSelect } from '@/components/choice-select';
import { PhoneInput } from '@/components/phone-input';
import { TextField } from '@/components/text-field';
import { Field, fieldControlProps } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { useUserChoiceNames } from '@/lib/api/user-choices';

/** The boxes of a job that the pipeline's entry dialog and the calendar's appointment dialog both show. */
export type JobFieldKey = 'name' | 'phone' | 'part' | 'makeModel' | 'jobType' | 'tech' | 'appointment' | 'duration' | 'quote' | 'notes';

/** What those boxes hold, as typed. */
export type JobFieldValues = Record<Exclude<JobFieldKey, 'name'>, string> & { name: string };

/** How a select reads when empty: a "none" item that clears it, or a placeholder that asks for a choice. */
interface SelectEmpty {
  noneLabel?: string | null;
  placeholder?: string;
}

const JOB_TYPE_CHOICES: readonly Choice[] = JOB_TYPES.map((type) => ({ value: type, label: type }));

/** The durations offered: the list, plus a current one outside it (a calendar resize can leave 1 h 45 min), in words and in order. */
export function durationChoices(list: readonly number[], current: string): Choice[] {
  const minutes = Number(current);
  const offered = minutes > 0 && !list.includes(minutes) ? [...list, minutes].sort((a, b) => a - b) : list;
  return offered.map((m) => ({ value: String(m), label: formatDuration(m) }));
}

export interface JobFieldsProps {
  instance: string;
  /** Each box's id is `${idPrefix}-${field}` (labels, errors and tests find it by that). */
  idPrefix: string;
  values: JobFieldValues;
  onChange: (patch: Partial<JobFieldValues>) => void;
  /** The boxes in order: a job field, or a key of `own` (a box only that dialog has). */
  layout: readonly string[];
  own?: Partial<Record<string, ReactNode>>;
  labels: Record<JobFieldKey, ReactNode>;
  errors?: Partial<Record<JobFieldKey, string | undefined>>;
  hints?: Partial<Record<'name' | 'makeModel' | 'quote', ReactNode>>;
  /** The Name box's control: each dialog brings its own customer autocomplete. */
  nameControl: (props: { id: string; error: string | undefined }) => ReactNode;
  durations: readonly number[];
  empty: Record<'jobType' | 'tech' | 'duration', SelectEmpty>;
  quote: { placeholder: string; currency?: boolean; readOnly?: boolean };
}

/**
 * One job form's boxes, drawn the same way wherever a job is edited: each dialog chooses which
 * boxes it shows, in what order, with what labels, and adds boxes of its own between them.
 */
export function JobFields({
  instance,
  idPrefix,
  values,
  onChange,
  layout,
  own = {},
  labels,
  errors = {},
  hints = {},
  nameControl,
  durations,
  empty,
  quote,
}: JobFieldsProps) {
  const technicians = useUserChoiceNames(instance);
  const id = (field: string) => `${idPrefix}-${field}`;
  const text = (field: Exclude<JobFieldKey, 'name'>) => (event: { target: { value: string } }) => onChange({ [field]: event.target.value });
  const techChoices = (technicians.data ?? []).map((name) => ({ value: name, label: name }));

  const box = (field: JobFieldKey): ReactNode => {
    switch (field) {
      case 'name':
        return (
          <Field id={id('name')} label={labels.name} error={errors.name} hint={hints.name}>
            {nameControl({ id: id('name'), error: errors.name })}
          </Field>
        );
      case 'phone':
        return (
          <Field id={id('phone')} label={labels.phone} error={errors.phone}>
            <PhoneInput
              {...fieldControlProps(id('phone'), { error: errors.phone })}
              value={values.phone}
              onChange={(phone) => onChange({ phone })}
            />
          </Field>
        );
      case 'part':
        return (
          <TextField
            id={id('part')}
            label={labels.part}
            error={errors.part}
            value={values.part}
            onChange={text('part')}
            maxLength={JOB_LIMITS.part}
            autoComplete="off"
          />
        );
      case 'makeModel':
        return (
          <TextField
            id={id('makeModel')}
            label={labels.makeModel}
            hint={hints.makeModel}
            value={values.makeModel}
            onChange={text('makeModel')}
            maxLength={JOB_LIMITS.makeModel}
            autoComplete="off"
          />
        );
      case 'jobType':
        return (
          <Field id={id('jobType')} label={labels.jobType}>
            <ChoiceSelect
              id={id('jobType')}
              value={values.jobType}
              choices={JOB_TYPE_CHOICES}
              {...empty.jobType}
              onChange={(jobType) => onChange({ jobType })}
            />
          </Field>
        );
      case 'tech':
        return (
          <Field id={id('tech')} label={labels.tech}>
            <ChoiceSelect
              id={id('tech')}
              value={values.tech}
              choices={techChoices}
              {...empty.tech}
              onChange={(tech) => onChange({ tech })}
            />
          </Field>
        );
      case 'appointment':
        return (
          <TextField
            id={id('appointment')}
            label={labels.appointment}
            error={errors.appointment}
            type="datetime-local"
            // Appointments fall on the quarter hour.
            step={15 * 60}
            value={values.appointment}
            onChange={text('appointment')}
          />
        );
      case 'duration':
        return (
          <Field id={id('duration')} label={labels.duration}>
            <ChoiceSelect
              id={id('duration')}
              value={values.duration}
              choices={durationChoices(durations, values.duration)}
              {...empty.duration}
              onChange={(duration) => onChange({ duration })}
            />
          </Field>
        );
      case 'quote':
        return quote.currency ? (
          <Field id={id('quote')} label={labels.quote} error={errors.quote} hint={hints.quote}>
            <div className="relative">
              <span
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground"
              >
                $
              </span>
              <Input
                {...fieldControlProps(id('quote'), { error: errors.quote, hint: Boolean(hints.quote) })}
                inputMode="decimal"
                readOnly={quote.readOnly}
                value={values.quote}
                onChange={text('quote')}
                placeholder={quote.placeholder}
                maxLength={20}
                autoComplete="off"
                className="pl-7 tabular-nums"
              />
            </div>
          </Field>
        ) : (
          <TextField
            id={id('quote')}
            label={labels.quote}
            error={errors.quote}
            inputMode="decimal"
            value={values.quote}
            onChange={text('quote')}
            placeholder={quote.placeholder}
            autoComplete="off"
          />
        );
      case 'notes':
        return (
          <Field id={id('notes')} label={labels.notes} className="sm:col-span-2">
            <Textarea id={id('notes')} value={values.notes} onChange={text('notes')} maxLength={JOB_LIMITS.notes} rows={3} />
          </Field>
        );
      default: {
        const unhandled: never = field;
        return unhandled;
      }
    }
  };

  return (
    <>
      {layout.map((key) => (
        <Fragment key={key}>{key in own ? own[key] : isJobFieldKey(key) ? box(key) : null}</Fragment>
      ))}
    </>
  );
}

const JOB_FIELD_KEYS: ReadonlySet<string> = new Set<JobFieldKey>([
  'name',
  'phone',
  'part',
  'makeModel',
  'jobType',
  'tech',
  'appointment',
  'duration',
  'quote',
  'notes',
]);

function isJobFieldKey(key: string): key is JobFieldKey {
  return JOB_FIELD_KEYS.has(key);
}
