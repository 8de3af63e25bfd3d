import { vehicleLabelKey } from '@crm/projections/vehicles';

/**
 * The customer's vehicles typed on the customer (its Vehicles field) that have no vehicle record
 * of the same label: a customer's vehicles typed before each became a record (until
 * `vehicles:migrate` makes them records), or a label whose record was renamed or deleted since.
 */
export function vehiclesWithoutRecord(labels: readonly string[], records: ReadonlyArray<{ label: string }>): string[] {
  const recorded = new Set(records.map((record) => vehicleLabelKey(record.label)));
  const seen = new Set<string>();
  return labels.filter((label) => {
    const key = vehicleLabelKey(label);
    if (!key || recorded.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
