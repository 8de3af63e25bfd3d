import type { Role } from '@crm/projections/identity';
import { type FormEvent, useState } from 'react';
import { NewUserFields } from '@/components/new-user-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { PlusIcon } from '@/components/ui/icons';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useCreateUser } from '../api/create-user';
import { PIN_HINT, USER_ERRORS } from '../constants/user-messages';
import { EMPTY_NEW_USER, type NewUserErrors, type NewUserForm, validateNewUser } from '@/lib/validate-new-user';
import { reportFailure } from '@/lib/report-failure';
import { useSignedInUser } from '../hooks/use-signed-in-user';
import { mayChangeRoles } from '../utils/user-access';

const FIELD_ORDER: Array<keyof NewUserForm> = ['username', 'displayName', 'pin', 'role'];
const fieldId = (field: keyof NewUserForm) => `create-user-${field}`;

/** "Add New User" and its "Create New User" dialog. */
export function CreateUserDialog() {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<NewUserForm>(EMPTY_NEW_USER);
  const [errors, setErrors] = useState<NewUserErrors>({});
  const createUser = useCreateUser();
  // Only admins make admins: a user manager's new users are regular users (the server refuses the rest).
  const choosesRole = mayChangeRoles(useSignedInUser());

  const update = (field: 'username' | 'displayName' | 'pin') => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setForm((current) => ({ ...current, [field]: value }));
    // A corrected field stops showing its old complaint.
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const handleOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setErrors({});
      createUser.reset();
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (createUser.isPending) return;
    const result = validateNewUser(form);
    if (!result.ok) {
      setErrors(result.errors);
      createUser.reset();
      const first = FIELD_ORDER.find((field) => result.errors[field]);
      if (first) document.getElementById(fieldId(first))?.focus();
      return;
    }
    setErrors({});
    createUser.mutate(result.value, {
      onSuccess: (created) => {
        toast({ title: 'User created', description: `${created.username} can now sign in.` });
        setForm(EMPTY_NEW_USER);
        setOpen(false);
      },
      onError: (error) => reportFailure('Create user failed', error),
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon />
          Add New User
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New User</DialogTitle>
          <DialogDescription>The new user signs in to this CRM with their username and PIN.</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} noValidate className="grid gap-5">
          <div className="grid gap-4">
            <NewUserFields
              idOf={fieldId}
              values={form}
              errors={errors}
              // The error repeats the hint's rule, so it takes the hint's place.
              pinHint={errors.pin ? undefined : PIN_HINT}
              onChange={update}
            />
            {choosesRole ? (
              <Field id={fieldId('role')} label="Role">
                <Select value={form.role} onValueChange={(role) => setForm((current) => ({ ...current, role: role as Role }))}>
                  <SelectTrigger id={fieldId('role')}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="user">User</SelectItem>
                    <SelectItem value="admin">Admin</SelectItem>
                  </SelectContent>
                </Select>
              </Field>
            ) : (
              <p className="text-sm text-muted-foreground" data-testid="new-user-role">
                The new user is a regular user who can read and change records. Only an admin can add an admin.
              </p>
            )}
          </div>
          <Alert>{createUser.isError ? errorMessage(createUser.error, USER_ERRORS.create) : null}</Alert>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" aria-disabled={createUser.isPending || undefined}>
              {createUser.isPending ? 'Creating...' : 'Create User'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
