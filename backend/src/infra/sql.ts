/** `LIKE` pattern for "contains `text`": its own %, _ and \ match themselves. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
