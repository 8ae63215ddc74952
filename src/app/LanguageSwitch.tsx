import { useLocation, useNavigate } from '@tanstack/react-router'
import type { Locale } from '../../contract/locale.ts'
import { swapLocaleInPath } from '../lib/locale.ts'
import { isPlainClick, LanguageLink } from '../ui/LanguageLink.tsx'

/** Switches language on the same page inside the SPA: the path gains or loses `/en`, the query string stays. */
export function LanguageSwitch({
  locale,
  onSwitch,
}: {
  locale: Locale
  onSwitch?: (locale: Locale) => void
}) {
  const location = useLocation()
  const navigate = useNavigate()
  const target: Locale = locale === 'fr' ? 'en' : 'fr'
  const href = `${swapLocaleInPath(location.pathname, target)}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`
  return (
    <LanguageLink
      target={target}
      href={href}
      onFollow={(event) => {
        if (!isPlainClick(event)) return
        event.preventDefault()
        onSwitch?.(target)
        void navigate({ href })
      }}
    />
  )
}
