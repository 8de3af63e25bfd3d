import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { PlusIcon } from '@/components/ui/icons';
import { CreateInstanceForm } from './create-instance-form';

/** The Create New CRM Instance dialog: the create-instance form, its name and display name asked for. */
export function CreateCrmInstanceDialog({ origin }: { origin: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
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
        {/* The content mounts at each opening: the form starts empty, without messages. */}
        <CreateInstanceForm
          variant="dialog"
          origin={origin}
          onCreated={() => setOpen(false)}
          actions={
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
          }
        />
      </DialogContent>
    </Dialog>
  );
}
