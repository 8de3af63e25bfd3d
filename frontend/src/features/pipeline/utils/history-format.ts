import { JOB_FIELD_LABELS } from '@crm/projections/pipeline';
import { changeFieldLabel } from '@/lib/change-field-label';

/** A job field in words ('makeModel' → 'Vehicle'); a repair-order line's field names the line and the field in words. */
export function historyFieldLabel(field: string): string {
  return changeFieldLabel(field, JOB_FIELD_LABELS);
}
