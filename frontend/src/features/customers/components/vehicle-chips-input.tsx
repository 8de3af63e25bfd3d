import { type KeyboardEvent, useState } from 'react';
import { XIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { addVehicles, removeVehicle } from '../utils/vehicle-chips';

const ESCAPE_CLEARS = 'data-escape-clears';

/**
 * True when Escape belongs to a chips field holding typed text: it cancels that text, so
 * a dialog around it must not close. Dialogs call this from onEscapeKeyDown (Radix hears
 * Escape before the field does).
 */
export function isEscapeClaimed(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement && target.hasAttribute(ESCAPE_CLEARS) && target.value !== '';
}

/**
 * Vehicles as removable chips: type one and press Enter to add it, Escape
 * cancels the typed text. Blank and repeated vehicles (whatever their case and spaces) are not added.
 */
export function VehicleChipsInput({
  id,
  vehicles,
  draft,
  onVehiclesChange,
  onDraftChange,
  disabled,
  invalid,
  describedBy,
}: {
  id: string;
  vehicles: string[];
  draft: string;
  onVehiclesChange: (vehicles: string[]) => void;
  onDraftChange: (draft: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
}) {
  // Adding and removing are announced only (the chips show them); a refused repeat is shown too.
  const [notice, setNotice] = useState<{ text: string; visible: boolean }>({ text: '', visible: false });
  const noticeId = `${id}-notice`;

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter adds a chip; it never submits the form.
      event.preventDefault();
      const result = addVehicles(vehicles, draft);
      if (result.added.length > 0) {
        onVehiclesChange(result.vehicles);
        onDraftChange('');
        setNotice({ text: `Added ${result.added.join(', ')}.`, visible: false });
      } else if ('reason' in result && result.reason === 'duplicate') {
        setNotice({ text: `${draft.trim()} is already listed.`, visible: true });
      }
    } else if (event.key === 'Escape' && draft !== '') {
      event.preventDefault();
      onDraftChange('');
      setNotice({ text: '', visible: false });
    }
  };

  const handleRemove = (index: number) => {
    const removed = vehicles[index];
    onVehiclesChange(removeVehicle(vehicles, index));
    setNotice({ text: removed ? `Removed ${removed}.` : '', visible: false });
    document.getElementById(id)?.focus();
  };

  return (
    <div className="grid gap-2">
      {vehicles.length > 0 ? (
        <ul aria-label="Vehicles added" className="flex flex-wrap gap-1.5">
          {vehicles.map((vehicle, index) => (
            <li
              key={`${vehicle}-${index}`}
              className="inline-flex max-w-full items-center gap-1 rounded-full border border-transparent bg-primary/12 py-0.5 pr-1 pl-2.5 text-xs font-medium text-primary dark:bg-primary/20"
            >
              <span className="truncate">{vehicle}</span>
              <button
                type="button"
                onClick={() => handleRemove(index)}
                disabled={disabled}
                className="rounded-full p-0.5 hover:bg-primary/15 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
              >
                <XIcon className="size-3.5" />
                <span className="sr-only">Remove {vehicle}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <Input
        id={id}
        value={draft}
        onChange={(event) => {
          onDraftChange(event.target.value);
          if (notice.text) setNotice({ text: '', visible: false });
        }}
        onKeyDown={handleKeyDown}
        placeholder="YEAR MAKE MODEL"
        autoComplete="off"
        disabled={disabled}
        enterKeyHint="enter"
        aria-invalid={invalid || undefined}
        aria-describedby={cn(describedBy, noticeId) || undefined}
        {...{ [ESCAPE_CLEARS]: '' }}
      />
      <p id={noticeId} aria-live="polite" className={notice.visible ? 'text-xs font-medium text-muted-foreground' : 'sr-only'}>
        {notice.text}
      </p>
    </div>
  );
}
