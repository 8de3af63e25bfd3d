import type { ReactNode } from 'react';
import { Field, fieldControlProps } from '@/components/ui/field';
import { Input, type InputProps } from '@/components/ui/input';

/**
 * A labelled one-line box: a Field around an Input, the input marked invalid and described
 * by the error while there is one. Every other prop is the input's.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  ...inputProps
}: { id: string; label: ReactNode; hint?: ReactNode; error?: string | undefined } & Omit<InputProps, 'id'>) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input {...inputProps} {...fieldControlProps(id, { hint: Boolean(hint), error })} />
    </Field>
  );
}
