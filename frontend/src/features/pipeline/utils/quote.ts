/** What the Quote box may hold as it is typed or pasted: digits only (whole dollars). */
export function sanitizeQuote(value: string): string {
  return value.replace(/\D/g, '');
}
