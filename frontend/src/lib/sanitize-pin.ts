/** Keeps what a PIN field may hold as it is typed or pasted: up to four digits. */
export function sanitizePin(value: string): string {
  return value.replace(/\D/g, '').slice(0, 4);
}
