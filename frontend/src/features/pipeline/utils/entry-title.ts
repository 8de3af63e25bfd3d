type NamedJob = { id: string; jobNumber: string; name: string };

/**
 * How a job is named on titles, buttons and confirmations: its name, else 'Entry #{job
 * number}' (the number is what staff know it by; the id, a UUID, only when there is none).
 */
export function jobLabel(job: NamedJob): string {
  return job.name.trim() || `Entry #${job.jobNumber.trim() || job.id}`;
}

/**
 * The entry dialog's title: 'Add New Entry', or 'Edit {name or Entry #number}';
 * 'View …' for someone who may not change it.
 */
export function entryDialogTitle(job: NamedJob | null, readOnly = false): string {
  return job ? `${readOnly ? 'View' : 'Edit'} ${jobLabel(job)}` : 'Add New Entry';
}
