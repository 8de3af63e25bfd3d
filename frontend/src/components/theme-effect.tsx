import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { applyTheme, themeAtom, watchSystemTheme } from '@/lib/theme';

/** Follows the OS theme while the user has not picked one. Renders nothing. */
export function ThemeEffect() {
  const setTheme = useSetAtom(themeAtom);
  useEffect(
    () =>
      watchSystemTheme((theme) => {
        setTheme(theme);
        applyTheme(theme);
      }),
    [setTheme],
  );
  return null;
}
