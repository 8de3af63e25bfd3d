/**
 * One RFC 4180 cell, for every CSV the API answers. Text a spreadsheet would run as a formula
 * (=, +, -, @, tab or CR first) is prefixed with an apostrophe, so an exported name never
 * becomes one (`-2+3+cmd|…` is a formula too); a plain number (a count, or an amount like
 * `-30.00`) is written as it is, so it stays a number.
 */
export function csvCell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
