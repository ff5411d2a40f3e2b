export type Theme = 'light' | 'dark' | 'system';
const KEY = 'tocsin.theme';

/** The stored choice, or the system's (prefers-color-scheme) when none. */
export function storedTheme(): Theme {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyStoredTheme(theme: Theme = storedTheme()): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function setTheme(theme: Theme): void {
  if (theme === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, theme);
  applyStoredTheme(theme);
}
