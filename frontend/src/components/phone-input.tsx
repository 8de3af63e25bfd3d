import { formatPhoneAsTyped } from '@crm/projections/shared';
import { Input, type InputProps } from '@/components/ui/input';

/**
 * A job's phone box: digits only, shown as XXX-XXX-XXXX while typing (12 characters with the
 * dashes), a number pad on phones. `onChange` gets the formatted text.
 */
export function PhoneInput({
  value,
  onChange,
  ...props
}: { value: string; onChange: (value: string) => void } & Omit<
  InputProps,
  'type' | 'inputMode' | 'value' | 'onChange' | 'maxLength' | 'autoComplete'
>) {
  return (
    <Input
      {...props}
      type="tel"
      inputMode="numeric"
      value={value}
      onChange={(event) => onChange(formatPhoneAsTyped(event.target.value))}
      maxLength={12}
      autoComplete="off"
    />
  );
}
