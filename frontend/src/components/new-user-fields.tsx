import { Field, fieldControlProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PinInput } from '@/components/ui/pin-input';

export type NewUserField = 'username' | 'displayName' | 'pin';

/**
 * A new user's username, optional display name and PIN, each with its error under it:
 * the admins' Create New User dialog and the super admin's Add admin form.
 */
export function NewUserFields({
  idOf,
  values,
  errors,
  pinHint,
  onChange,
}: {
  idOf: (field: NewUserField) => string;
  values: Record<NewUserField, string>;
  errors: Partial<Record<NewUserField, string>>;
  /** Under the PIN box, when given. */
  pinHint?: string | undefined;
  onChange: (field: NewUserField) => (event: { target: { value: string } }) => void;
}) {
  return (
    <>
      <Field id={idOf('username')} label="Username" error={errors.username}>
        <Input
          {...fieldControlProps(idOf('username'), { error: errors.username })}
          value={values.username}
          onChange={onChange('username')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
      </Field>
      <Field
        id={idOf('displayName')}
        label={
          <>
            Display Name <span className="font-normal text-muted-foreground">(optional)</span>
          </>
        }
        error={errors.displayName}
      >
        <Input
          {...fieldControlProps(idOf('displayName'), { error: errors.displayName })}
          value={values.displayName}
          onChange={onChange('displayName')}
          autoComplete="off"
        />
      </Field>
      <Field id={idOf('pin')} label="PIN" hint={pinHint} error={errors.pin}>
        <PinInput
          {...fieldControlProps(idOf('pin'), { hint: Boolean(pinHint), error: errors.pin })}
          value={values.pin}
          onChange={onChange('pin')}
          autoComplete="new-password"
          required
        />
      </Field>
    </>
  );
}
