import type { CrmInstanceView } from '@crm/projections/platform';
import { type FormEvent, useState } from 'react';
import { NewUserFields } from '@/components/new-user-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PlusIcon } from '@/components/ui/icons';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useAddInstanceAdmin } from '../api/add-instance-admin';
import { sanitizePin } from '@/lib/sanitize-pin';
import {
  EMPTY_NEW_ADMIN,
  type NewAdminErrors,
  type NewAdminField,
  type NewAdminForm,
  validateNewAdmin,
} from '../utils/validate-instance-user';
import { reportFailure } from '@/lib/report-failure';

/** "Add admin": a new admin user for the instance. */
export function AddInstanceAdminForm({ instance }: { instance: Pick<CrmInstanceView, 'id' | 'displayName'> }) {
  const [form, setForm] = useState<NewAdminForm>(EMPTY_NEW_ADMIN);
  const [errors, setErrors] = useState<NewAdminErrors>({});
  const addAdmin = useAddInstanceAdmin();
  const fieldId = (field: NewAdminField) => `add-admin-${instance.id}-${field}`;

  const update = (field: NewAdminField) => (event: { target: { value: string } }) => {
    const value = field === 'pin' ? sanitizePin(event.target.value) : event.target.value;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (addAdmin.isPending) return;
    addAdmin.reset();
    const result = validateNewAdmin(form);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(fieldId(result.firstField))?.focus();
      return;
    }
    setErrors({});
    addAdmin.mutate(
      { instanceId: instance.id, admin: result.value },
      {
        onSuccess: (created) => {
          toast({ title: 'Admin added', description: `${created.username} can now sign in to ${instance.displayName}.` });
          setForm(EMPTY_NEW_ADMIN);
          document.getElementById(fieldId('username'))?.focus();
        },
        onError: (error) => reportFailure('Add admin failed', error),
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <NewUserFields idOf={fieldId} values={form} errors={errors} pinHint="4 digits; the admin signs in with it." onChange={update} />
      </div>
      <Alert>{addAdmin.isError ? errorMessage(addAdmin.error, 'Failed to add the admin') : null}</Alert>
      <div className="flex flex-col sm:flex-row sm:justify-end">
        <Button type="submit" aria-disabled={addAdmin.isPending || undefined}>
          <PlusIcon />
          {addAdmin.isPending ? 'Adding...' : 'Add admin'}
        </Button>
      </div>
    </form>
  );
}
