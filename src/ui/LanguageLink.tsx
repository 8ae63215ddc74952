import { useLingui } from '@lingui/react/macro'
import { Languages } from 'lucide-react'
import type { MouseEvent } from 'react'
import type { Locale } from '../../contract/locale.ts'
import { writeLocaleCookie } from '../lib/locale.ts'

const NAMES: Record<Locale, string> = { fr: 'Français', en: 'English' }

/**
 * A link to the same page in the other language: works without JavaScript, and remembers the choice in the
 * locale cookie. `onFollow` may take over the navigation (the SPA's router does).
 */
export function LanguageLink({
  target,
  href,
  onFollow,
}: {
  target: Locale
  href: string
  onFollow?: (event: MouseEvent<HTMLAnchorElement>) => void
}) {
  const { t } = useLingui()
  return (
    <a
      href={href}
      hrefLang={target}
      lang={target}
      onClick={(event) => {
        writeLocaleCookie(target)
        onFollow?.(event)
      }}
      aria-label={t`Switch language to ${NAMES[target]}`}
      className="inline-flex min-h-11 items-center lg:min-h-10 gap-2 rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-200/70"
    >
      <Languages aria-hidden className="size-4" />
      {/* The name is the accessible label; on a narrow phone the visible text shrinks to the language's code. */}
      <span className="uppercase min-[400px]:hidden">{target}</span>
      <span className="hidden min-[400px]:inline">{NAMES[target]}</span>
    </a>
  )
}

/** A plain left click, which the page may handle itself (not a new tab or window). */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}
