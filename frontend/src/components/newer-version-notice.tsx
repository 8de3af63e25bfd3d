import { Button } from '@/components/ui/button';

/**
 * An open form whose record someone else changed meanwhile (a live update): says so and
 * offers that version. Nothing is replaced until asked; a save of the older version is
 * refused by the server anyway (If-Match), with the same offer.
 */
export function NewerVersionNotice({ record, dirty, onLoad }: { record: string; dirty: boolean; onLoad: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-500/50 bg-amber-500/10 px-3 py-2 text-sm text-amber-900 dark:text-amber-200"
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
