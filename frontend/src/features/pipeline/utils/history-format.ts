import { JOB_FIELD_LABELS, type JobField } from '@crm/projections/pipeline';

/** A job field in words; a field this screen does not know is shown as it came. */
export function historyFieldLabel(field: string): string {
  return JOB_FIELD_LABELS[field as JobField] ?? field;
}
