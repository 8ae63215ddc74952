import { useLingui } from '@lingui/react/macro'
import { useLocation, useNavigate } from '@tanstack/react-router'
import { Languages } from 'lucide-react'
import type { Locale } from '../../contract/locale.ts'
import { swapLocaleInPath, writeLocaleCookie } from '../lib/locale.ts'

const NAMES: Record<Locale, string> = { fr: 'Français', en: 'English' }

/** Switches language on the same page: the path gains or loses `/en`, the query string stays. */
export function LanguageSwitch({
  locale,
  onSwitch,
}: {
  locale: Locale
  onSwitch?: (locale: Locale) => void
}) {
  const { t } = useLingui()
  const location = useLocation()
  const navigate = useNavigate()
  const target: Locale = locale === 'fr' ? 'en' : 'fr'
  const switchTo = () => {
    writeLocaleCookie(target)
    onSwitch?.(target)
    void navigate({
      href: `${swapLocaleInPath(location.pathname, target)}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`,
    })
  }
  return (
    <button
      type="button"
      onClick={switchTo}
      lang={target}
      aria-label={t`Switch language to ${NAMES[target]}`}
      className="inline-flex min-h-10 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-200/70"
    >
      <Languages aria-hidden className="size-4" />
      {NAMES[target]}
    </button>
  )
}
