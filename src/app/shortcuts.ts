import { useNavigate } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import type { Locale } from '../../contract/locale.ts'
import { useAbility } from '../lib/ability.tsx'
import { localizedHref } from '../lib/paths.ts'

/** The search field of the screen: a search input, or what a screen marks as its search. */
const SEARCH = 'main input[type="search"], main [data-shortcut="search"]'
/** The "new" action of a list screen: what a screen marks, or its link to a creation page. */
const NEW = 'main [data-shortcut="new"], main a[href$="/new"], main a[href$="/new-order"]'
/** List screens, where `n` means "new" (elsewhere it does nothing, not even on a detail page's links). */
const LIST_SCREEN = /^(\/en)?\/app\/(keychains|transfers|organizations|orders|users|tags|webhooks)\/?$/

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || target.closest('input, textarea, select, [role="textbox"]') !== null
}

function focusSearch(): boolean {
  const field = document.querySelector<HTMLElement>(SEARCH)
  if (!field) return false
  field.focus()
  if (field instanceof HTMLInputElement) field.select()
  return true
}

/** Focuses the search field once the screen shows it (a second at most). */
function focusSearchSoon(): void {
  const started = performance.now()
  const attempt = () => {
    if (!focusSearch() && performance.now() - started < 1000) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(attempt)
}

/**
 * Desktop shortcuts: `/` search (the keychains' when the screen has none), `s` scan, `n` a list's "new", `?`
 * the list of them. Never while typing in a field, with Ctrl, Alt or Meta, or over a dialog.
 */
export function useShortcuts(locale: Locale, openHelp: () => void): void {
  const navigate = useNavigate()
  const ability = useAbility()
  const latest = useRef({ locale, openHelp, navigate, ability })
  latest.current = { locale, openHelp, navigate, ability }
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return
      if (isTyping(event.target) || document.querySelector('[aria-modal="true"], dialog[open]')) return
      const { locale, openHelp, navigate, ability } = latest.current
      const go = (path: '/app/scan' | '/app/keychains') =>
        void navigate({ href: localizedHref(locale, path) })
      if (event.key === '/') {
        if (!focusSearch()) {
          if (!ability.can('read', 'keychain')) return
          go('/app/keychains')
          focusSearchSoon()
        }
      } else if (event.key === 's') {
        if (!ability.can('create', 'scan')) return
        go('/app/scan')
      } else if (event.key === 'n') {
        const create = LIST_SCREEN.test(location.pathname) ? document.querySelector<HTMLElement>(NEW) : null
        if (!create) return
        create.click()
      } else if (event.key === '?') {
        openHelp()
      } else return
      event.preventDefault()
    }
    document.addEventListener('keydown', onKey)
    // They load after the page (a wide screen's side bar, or once idle): the mark says they now answer.
    document.documentElement.dataset.shortcuts = 'on'
    return () => {
      document.removeEventListener('keydown', onKey)
      delete document.documentElement.dataset.shortcuts
    }
  }, [])
}
