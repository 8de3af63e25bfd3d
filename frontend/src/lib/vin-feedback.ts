import { checkVin, decodedVinText, vinYearDisagreement } from '@crm/projections/vehicles';

/**
 * What a VIN box says as it is typed, the same in every form that takes a VIN: the problem
 * (length, letters I, O, Q, the check digit), or what the VIN decodes to, labelled so it is
 * not read as what was typed ("The VIN says model year 2003 · Honda · made in United States"),
 * and, when the form's own year differs, that too. Empty says nothing.
 */
export function vinFeedback(value: string, typedYear?: string): { error?: string; hint?: string } {
  if (!value.trim()) return {};
  const check = checkVin(value);
  if (!check.ok) return { error: check.message };
  const decoded = decodedVinText(check.decoded);
  const year = typedYear?.trim() && /^\d{4}$/.test(typedYear.trim()) ? Number(typedYear.trim()) : null;
  const sentences = [decoded ? `The VIN says ${decoded}` : 'VIN checks out', check.warning, vinYearDisagreement(year, check.decoded)];
  return {
    hint: `${sentences
      .filter(Boolean)
      .map((sentence) => sentence!.replace(/\.$/, ''))
      .join('. ')}.`,
  };
}
