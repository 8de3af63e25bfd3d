import { useMemo } from 'react';
import { fieldClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { timeZoneLabel, timeZoneOptions } from '../utils/time-zones';

/**
 * The shop's time zone: a native select (typing a few letters finds a zone among hundreds,
 * on phones too). Its calendar, day boundaries and the dashboard's week are in this zone.
 */
export function TimeZoneSelect({
  value,
  onChange,
  className,
  ...props
}: {
  id: string;
  value: string;
  onChange: (zone: string) => void;
  className?: string;
  'aria-invalid'?: true | undefined;
  'aria-describedby'?: string | undefined;
}) {
  const options = useMemo(() => {
    const now = new Date();
    return timeZoneOptions(value).map((zone) => ({ zone, label: timeZoneLabel(zone, now) }));
  }, [value]);
  return (
    <select {...props} value={value} onChange={(event) => onChange(event.target.value)} className={cn(fieldClasses, 'h-10', className)}>
      {options.map(({ zone, label }) => (
        <option key={zone} value={zone}>
          {label}
        </option>
      ))}
    </select>
  );
}
