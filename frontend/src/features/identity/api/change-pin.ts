import { changeOwnPinInput } from '@crm/projections/identity';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '@/lib/api-client';

export type ChangePinInput = z.input<typeof changeOwnPinInput>;

/** Changes the signed-in user's own PIN; the current PIN is required. */
export async function changePin(input: ChangePinInput): Promise<void> {
  const body = changeOwnPinInput.parse(input);
  await apiFetch<void>('/api/user/pin', { method: 'PUT', body });
}

export function useChangePin() {
  return useMutation({ mutationFn: changePin });
}
