import { atom } from 'jotai';

export type Theme = 'light' | 'dark';

/** localStorage key (spec-platform.md §9). index.html reads it too, before first paint. */
export const THEME_STORAGE_KEY = 'theme';

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}

/** The stored preference, else the operating system's. */
export const themeAtom = atom<Theme>(typeof window === 'undefined' ? 'light' : (storedTheme() ?? systemTheme()));

/** Sets the theme, saves it and applies it to the document root. */
export const setThemeAtom = atom(null, (_get, set, theme: Theme) => {
  set(themeAtom, theme);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be unavailable (private mode); the theme still applies for this visit.
  }
  applyTheme(theme);
});

export const toggleThemeAtom = atom(null, (get, set) => {
  set(setThemeAtom, get(themeAtom) === 'dark' ? 'light' : 'dark');
});

/**
 * Follows the OS setting while the user has not chosen a theme.
 * Returns an unsubscribe function; used by the ThemeEffect component.
 */
export function watchSystemTheme(onChange: (theme: Theme) => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia('(prefers-color-scheme: dark)');
  const listener = (event: MediaQueryListEvent) => {
    if (storedTheme() === null) onChange(event.matches ? 'dark' : 'light');
  };
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
