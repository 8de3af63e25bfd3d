import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

const NONE = '__none__';

export interface Choice {
  value: string;
  label: string;
}

/**
 * A select over `choices`. With a `noneLabel` (the default, "None") it may be left empty: that
 * item clears it. An empty value shows `placeholder`; without one, it shows the "none" item as
 * chosen (a technician "Unassigned"). `noneLabel={null}` asks for a value: there is no item to clear it.
 * A current value that is not among the choices (a user since removed, an old duration) stays offered.
 */
export function ChoiceSelect({
  id,
  value,
  choices,
  onChange,
  placeholder,
  noneLabel = 'None',
}: {
  id: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  placeholder?: string;
  noneLabel?: string | null;
}) {
  const options = value && !choices.some((choice) => choice.value === value) ? [{ value, label: value }, ...choices] : choices;
  const empty = placeholder === undefined && noneLabel ? NONE : '';
  return (
    <Select value={value || empty} onValueChange={(next) => onChange(next === NONE ? '' : next)}>
      <SelectTrigger id={id}>
        <SelectValue placeholder={placeholder ?? 'Select...'} />
      </SelectTrigger>
      <SelectContent>
        {noneLabel ? (
          <SelectItem value={NONE}>
            <span className="text-muted-foreground">{noneLabel}</span>
          </SelectItem>
        ) : null}
        {options.map((choice) => (
          <SelectItem key={choice.value} value={choice.value}>
            {choice.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
