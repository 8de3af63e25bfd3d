import { parseList } from '@crm/projections/customers';
import { vehicleLabelKey } from '@crm/projections/vehicles';

export type AddVehiclesResult =
  | { added: string[]; vehicles: string[] }
  /** Nothing new: the text was blank, or every vehicle in it is on the list already. */
  | { added: []; vehicles: string[]; reason: 'empty' | 'duplicate' };

/**
 * Adds the typed vehicle to the chips: trimmed, never empty, never a repeat
 * whatever its case and spaces (one vehicle, one record). Vehicles are stored joined by ', ', so a typed comma separates two
 * vehicles rather than hiding inside one.
 */
export function addVehicles(vehicles: readonly string[], typed: string): AddVehiclesResult {
  const candidates = parseList(typed);
  if (candidates.length === 0) return { added: [], vehicles: [...vehicles], reason: 'empty' };
  const seen = new Set(vehicles.map(vehicleLabelKey));
  const added: string[] = [];
  for (const candidate of candidates) {
    if (seen.has(vehicleLabelKey(candidate))) continue;
    seen.add(vehicleLabelKey(candidate));
    added.push(candidate);
  }
  if (added.length === 0) return { added: [], vehicles: [...vehicles], reason: 'duplicate' };
  return { added, vehicles: [...vehicles, ...added] };
}

export function removeVehicle(vehicles: readonly string[], index: number): string[] {
  return vehicles.filter((_, i) => i !== index);
}
