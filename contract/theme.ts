// Light on purpose: the server's headers and the SPA's shell import it (no schema library here).

/** An account's colour theme: the system's (prefers-color-scheme), or always light, or always dark. */
export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

/** The browser's mirror of the signed-in account's theme, read before the first paint. */
export const THEME_STORAGE_KEY = 'trousseau-theme'

/**
 * Inline in the head of index.html and public.html (the server's Content-Security-Policy allows it by its
 * hash, and a test checks both pages carry exactly this text): the `dark` class on <html> before anything
 * paints, from the mirror or the system; it follows the system's changes and the other tabs' choices.
 */
export const THEME_BOOT_SCRIPT =
  '(function(){var d=document.documentElement,m=matchMedia("(prefers-color-scheme: dark)");function a(){var t=null;try{t=localStorage.getItem("trousseau-theme")}catch(e){}d.classList.toggle("dark",t==="dark"||(t!=="light"&&m.matches))}a();m.addEventListener("change",a);addEventListener("storage",a)})()'
