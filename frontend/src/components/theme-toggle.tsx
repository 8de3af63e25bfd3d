import { useAtomValue, useSetAtom } from 'jotai';
import { Button } from '@/components/ui/button';
import { MoonIcon, SunIcon } from '@/components/ui/icons';
import { themeAtom, toggleThemeAtom } from '@/lib/theme';

export function ThemeToggle() {
  const theme = useAtomValue(themeAtom);
  const toggleTheme = useSetAtom(toggleThemeAtom);
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle theme"
      aria-pressed={theme === 'dark'}
      title={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={() => toggleTheme()}
    >
      {theme === 'dark' ? <MoonIcon /> : <SunIcon />}
    </Button>
  );
}
