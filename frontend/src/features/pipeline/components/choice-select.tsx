import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

const NONE = '__none__';

export interface Choice {
  value: string;
  label: string;
}

/**
 * A select whose value may be empty ('' shows `placeholder`, and a "None" item clears it).
 * A current value that is not among the choices (a user since removed) stays offered.
 */
export function ChoiceSelect({
  id,
  value,
  choices,
  onChange,
  placeholder = 'Select...',
  noneLabel = 'None',
}: {
  id: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  placeholder?: string;
  noneLabel?: string;
}) {
  const options = value && !choices.some((choice) => choice.value === value) ? [{ value, label: value }, ...choices] : choices;
  return (
    <Select value={value || ''} onValueChange={(next) => onChange(next === NONE ? '' : next)}>
      <SelectTrigger id={id}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NONE}>
          <span className="text-muted-foreground">{noneLabel}</span>
        </SelectItem>
        {options.map((choice) => (
          <SelectItem key={choice.value} value={choice.value}>
            {choice.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
