/**
 * The entry dialog's title: 'Add New Entry' for a new one, else 'Edit {name}', or
 * 'Edit Entry #{job number}' for a job without a name (the job number is what staff know
 * it by; the id is a UUID).
 */
export function entryDialogTitle(job: { id: string; jobNumber: string; name: string } | null): string {
  if (!job) return 'Add New Entry';
  const name = job.name.trim();
  if (name) return `Edit ${name}`;
  return `Edit Entry #${job.jobNumber.trim() || job.id}`;
}
