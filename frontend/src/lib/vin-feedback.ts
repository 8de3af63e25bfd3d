import { checkVin } from '@crm/projections/vehicles';

/**
 * What a VIN box says as it is typed, the same in every form that takes a VIN: the problem
 * (length, letters I, O, Q, the check digit), or what the VIN decodes to (year, make, country).
 * Empty says nothing.
 */
export function vinFeedback(value: string): { error?: string; hint?: string } {
  if (!value.trim()) return {};
  const check = checkVin(value);
  if (!check.ok) return { error: check.message };
  const decoded = [check.decoded.year, check.decoded.make, check.decoded.country].filter(Boolean).join(' · ');
  return { hint: [decoded || 'VIN checks out', check.warning].filter(Boolean).join('. ') };
}
