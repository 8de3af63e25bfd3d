import { PasswordInput, type PasswordInputProps } from './password-input';

/** A PIN box: four digits, hidden until shown, the number pad on phones. */
export function PinInput(props: PasswordInputProps) {
  return <PasswordInput secretName="PIN" inputMode="numeric" pattern="[0-9]*" maxLength={4} {...props} />;
}
