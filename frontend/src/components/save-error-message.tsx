import { Button } from '@/components/ui/button';

/**
 * A save's error, for an Alert. When the record changed meanwhile (a 409 carrying the current
 * record), `onLoadCurrent` offers to load that version: the one way every form says it.
 */
export function SaveErrorMessage({ message, onLoadCurrent }: { message: string; onLoadCurrent?: (() => void) | undefined }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <span>{message}</span>
      {onLoadCurrent ? (
        <Button variant="outline" size="sm" onClick={onLoadCurrent}>
          Load current version
        </Button>
      ) : null}
    </div>
  );
}
