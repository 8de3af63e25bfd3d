import { normalizeSubdomain } from '@crm/projections/platform';
import { type FormEvent, useState } from 'react';
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
import { Field, Fieldset } from '@/components/ui/field';
import { PlusIcon } from '@/components/ui/icons';
import { Input, Textarea } from '@/components/ui/input';
import { PinInput } from '@/components/ui/pin-input';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useCreateCrmInstance } from '../api/create-crm-instance';
import { shopAddresses } from '../utils/shop-addresses';
import { sanitizePin } from '@/lib/sanitize-pin';
import { type CreateInstanceErrors, type CreateInstanceField, validateCreateInstance } from '../utils/validate-create-instance';
import { reportFailure } from '@/lib/report-failure';

interface DialogForm {
  name: string;
  displayName: string;
  description: string;
  adminUsername: string;
  adminDisplayName: string;
  adminPin: string;
}

const EMPTY_FORM: DialogForm = {
  name: '',
  displayName: '',
  description: '',
  adminUsername: '',
  adminDisplayName: '',
  adminPin: '',
};

const fieldId = (field: CreateInstanceField) => `create-instance-${field}`;

/** `origin` is where the app is reached: the dialog shows where the new shop's staff will sign in. */
export function CreateCrmInstanceDialog({ origin }: { origin: string }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<DialogForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<CreateInstanceErrors>({});
  const createInstance = useCreateCrmInstance();

  const update = (field: keyof DialogForm) => (event: { target: { value: string } }) => {
    const value = field === 'adminPin' ? sanitizePin(event.target.value) : event.target.value;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const handleOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) setErrors({});
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (createInstance.isPending) return;
    const result = validateCreateInstance(form);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(fieldId(result.firstField))?.focus();
      return;
    }
    setErrors({});
    createInstance.mutate(result.value, {
      onSuccess: () => {
        toast({ title: 'Success', description: 'CRM instance created successfully!' });
        setForm(EMPTY_FORM);
        setOpen(false);
      },
      onError: (error) => {
        reportFailure('Create CRM instance failed', error);
        toast({
          title: 'Error',
          description: errorMessage(error, 'Failed to create CRM instance'),
          variant: 'destructive',
        });
      },
    });
  };

  const subdomain = normalizeSubdomain(form.name);
  const addresses = shopAddresses(origin, subdomain || 'yourshop');
  const messages = [...new Set(Object.values(errors))];
  const invalid = (field: CreateInstanceField) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': 'create-instance-errors' } : {};

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon />
          Create New CRM Instance
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New CRM Instance</DialogTitle>
          <DialogDescription>Set up an isolated CRM for a shop and its first admin account.</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} noValidate className="grid gap-5">
          <div className="grid gap-4">
            <Field
              id={fieldId('name')}
              label="Name"
              hint={
                <>
                  Its staff will sign in at:
                  <span className="mt-1 grid gap-0.5">
                    <span className="font-mono break-all text-foreground" data-testid="create-instance-address">
                      {addresses.short}
                    </span>
                    <span>
                      or <span className="font-mono break-all text-foreground">{addresses.signIn}</span>
                    </span>
                  </span>
                </>
              }
            >
              <Input
                id={fieldId('name')}
                value={form.name}
                onChange={update('name')}
                autoComplete="off"
                {...invalid('name')}
                aria-describedby={errors.name ? `${fieldId('name')}-hint create-instance-errors` : `${fieldId('name')}-hint`}
              />
            </Field>
            <Field id={fieldId('displayName')} label="Display Name">
              <Input
                id={fieldId('displayName')}
                value={form.displayName}
                onChange={update('displayName')}
                autoComplete="off"
                {...invalid('displayName')}
              />
            </Field>
            <Field id={fieldId('description')} label="Description">
              <Textarea id={fieldId('description')} value={form.description} onChange={update('description')} {...invalid('description')} />
            </Field>
          </div>
          <div className="border-t pt-4">
            <Fieldset legend="First admin">
              <Field id={fieldId('adminUsername')} label="Admin Username">
                <Input
                  id={fieldId('adminUsername')}
                  value={form.adminUsername}
                  onChange={update('adminUsername')}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  {...invalid('adminUsername')}
                />
              </Field>
              <Field id={fieldId('adminDisplayName')} label="Admin Display Name">
                <Input
                  id={fieldId('adminDisplayName')}
                  value={form.adminDisplayName}
                  onChange={update('adminDisplayName')}
                  autoComplete="off"
                  {...invalid('adminDisplayName')}
                />
              </Field>
              <Field id={fieldId('adminPin')} label="Admin PIN" hint="4 digits; the admin signs in with it.">
                <PinInput
                  id={fieldId('adminPin')}
                  value={form.adminPin}
                  onChange={update('adminPin')}
                  autoComplete="new-password"
                  aria-invalid={errors.adminPin ? true : undefined}
                  aria-describedby={errors.adminPin ? `${fieldId('adminPin')}-hint create-instance-errors` : `${fieldId('adminPin')}-hint`}
                />
              </Field>
            </Fieldset>
          </div>
          <Alert id="create-instance-errors">
            {messages.length === 0 ? null : messages.length === 1 ? (
              messages[0]
            ) : (
              <ul className="list-disc pl-4">
                {messages.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </Alert>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" aria-disabled={createInstance.isPending || undefined}>
              {createInstance.isPending ? 'Creating...' : 'Create Instance'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
