/** The word a user types to enable 'Delete Customer' (case does not matter). */
export const DELETE_CONFIRMATION_WORD = 'delete';

export function isDeleteConfirmed(typed: string): boolean {
  return typed.trim().toLowerCase() === DELETE_CONFIRMATION_WORD;
}
