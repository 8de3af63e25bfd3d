import { atom } from 'jotai';

export type Theme = 'light' | 'dark';
/** What the user chose on the settings page: a theme, or to follow the operating system. */
export type ThemePreference = Theme | 'system';

/** localStorage key. index.html reads it too, before first paint. */
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

/** The stored choice; 'system' while nothing is stored. */
export const themePreferenceAtom = atom<ThemePreference>(typeof window === 'undefined' ? 'system' : (storedTheme() ?? 'system'));

/** Sets the theme, saves it and applies it to the document root. */
export const setThemeAtom = atom(null, (_get, set, theme: Theme) => {
  set(themeAtom, theme);
  set(themePreferenceAtom, theme);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be unavailable (private mode); the theme still applies for this visit.
  }
  applyTheme(theme);
});

/** Forgets the stored choice: the theme follows the operating system again (see ThemeEffect). */
export const followSystemThemeAtom = atom(null, (_get, set) => {
  try {
    localStorage.removeItem(THEME_STORAGE_KEY);
  } catch {
    // Storage may be unavailable; nothing was stored then either.
  }
  const theme = systemTheme();
  set(themePreferenceAtom, 'system');
  set(themeAtom, theme);
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
