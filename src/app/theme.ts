import { THEME_STORAGE_KEY, THEMES, type Theme } from '../../contract/theme.ts'

const DARK_QUERY = '(prefers-color-scheme: dark)'

function mirror(theme: Theme | null): void {
  try {
    if (theme === null) localStorage.removeItem(THEME_STORAGE_KEY)
    else localStorage.setItem(THEME_STORAGE_KEY, theme)
  } catch {
    // Storage refused (private mode): this page still follows the choice, the next one the system.
  }
}

/**
 * Shows `theme` now and mirrors it for the next first paint (the inline script of the pages' head reads the
 * mirror and follows the system's changes); null: the account is gone, the system decides.
 */
export function applyTheme(wanted: Theme | null | undefined): void {
  // A profile cached before themes existed has none: the system's.
  const theme = wanted && THEMES.includes(wanted) ? wanted : null
  mirror(theme)
  const dark = theme === 'dark' || (theme !== 'light' && matchMedia(DARK_QUERY).matches)
  document.documentElement.classList.toggle('dark', dark)
}
