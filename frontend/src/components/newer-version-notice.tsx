import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * An open form whose record someone else changed meanwhile (a live update): says so and
 * offers that version. Nothing is replaced until asked; a save of the older version is
 * refused by the server anyway (If-Match), with the same offer.
 */
export function NewerVersionNotice({
  record,
  dirty,
  onLoad,
  className,
}: {
  record: string;
  dirty: boolean;
  onLoad: () => void;
  className?: string;
}) {
  return (
    <div
      role="status"
      // Opaque: a form may keep it in view while its fields scroll beneath.
      className={cn(
        'flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-500/50 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200',
        className,
      )}
    >
      <span>
        Someone else changed this {record} after you opened it.{dirty ? ' Loading their version discards your unsaved edits.' : ''}
      </span>
      <Button variant="outline" size="sm" onClick={onLoad}>
        Load new version
      </Button>
    </div>
  );
}
