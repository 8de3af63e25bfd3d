import { useAtomValue, useSetAtom } from 'jotai';
import type { ReactNode } from 'react';
import { MoonIcon, SunIcon } from '@/components/ui/icons';
import { followSystemThemeAtom, setThemeAtom, type ThemePreference, themePreferenceAtom } from '@/lib/theme';
import { cn } from '@/lib/cn';

const CHOICES: Array<{ value: ThemePreference; label: string; description: string; icon: ReactNode }> = [
  { value: 'light', label: 'Light', description: 'Always use the light theme.', icon: <SunIcon /> },
  { value: 'dark', label: 'Dark', description: 'Always use the dark theme.', icon: <MoonIcon /> },
  {
    value: 'system',
    label: 'System',
    description: "Follow this device's setting.",
    icon: (
      <span className="flex">
        <SunIcon />
        <MoonIcon />
      </span>
    ),
  },
];

/** Light, dark, or the operating system's choice; saved at once. */
export function ThemePreferenceForm() {
  const preference = useAtomValue(themePreferenceAtom);
  const setTheme = useSetAtom(setThemeAtom);
  const followSystem = useSetAtom(followSystemThemeAtom);

  const handleChange = (value: ThemePreference) => {
    if (value === 'system') followSystem();
    else setTheme(value);
  };

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-3 text-base font-semibold">Theme</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {CHOICES.map((choice) => {
          const id = `theme-${choice.value}`;
          return (
            <div
              key={choice.value}
              className={cn(
                'relative flex items-start gap-3 rounded-lg border p-3 hover:bg-accent/50',
                'has-[:checked]:border-primary/60 has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              )}
            >
              <input
                id={id}
                type="radio"
                name="theme"
                value={choice.value}
                checked={preference === choice.value}
                onChange={() => handleChange(choice.value)}
                aria-describedby={`${id}-description`}
                className="relative z-10 mt-0.5 size-4 shrink-0 accent-primary focus:outline-none"
              />
              <div className="grid gap-0.5">
                <label
                  htmlFor={id}
                  className="flex cursor-pointer items-center gap-2 text-sm leading-tight font-medium after:absolute after:inset-0"
                >
                  <span aria-hidden="true" className="text-muted-foreground [&_svg]:size-4">
                    {choice.icon}
                  </span>
                  {choice.label}
                </label>
                <p id={`${id}-description`} className="text-xs text-muted-foreground">
                  {choice.description}
                </p>
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
