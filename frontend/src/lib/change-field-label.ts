/** 'unitPrice' → 'Unit price'. */
function camelCaseToWords(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A changed field in words, for history rows and the audit log: a known field by its label
 * ('makeModel' → 'Vehicle'), any other camelCase name as words. A repair-order line's field
 * ('Brake Pads XL (part): unitPrice') keeps the line's own description as it was typed and
 * names only the field in words ('Brake Pads XL (part): unit price').
 */
export function changeFieldLabel(field: string, labels: Readonly<Record<string, string>>): string {
  const known = labels[field];
  if (known) return known;
  const at = field.lastIndexOf(': ');
  if (at >= 0) return `${field.slice(0, at + 2)}${camelCaseToWords(field.slice(at + 2)).toLowerCase()}`;
  return camelCaseToWords(field);
}
