import { pinSchema } from '@crm/projections/identity';

export const PIN_MISMATCH_MESSAGE = 'PINs do not match';

export interface ChangePinForm {
  currentPin: string;
  newPin: string;
  confirmPin: string;
}

export type ChangePinErrors = Partial<Record<keyof ChangePinForm, string>>;

/** The current PIN is required; the new one follows the PIN rules and is typed twice. */
export function validateChangePin({ currentPin, newPin, confirmPin }: ChangePinForm): ChangePinErrors {
  const errors: ChangePinErrors = {};
  if (!currentPin) errors.currentPin = 'Current PIN is required';
  const newPinError = newPin ? pinSchema.safeParse(newPin).error?.issues[0]?.message : 'New PIN is required';
  if (newPinError) errors.newPin = newPinError;
  else if (confirmPin !== newPin) errors.confirmPin = PIN_MISMATCH_MESSAGE;
  return errors;
}
