import type { I18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { Locale } from '../../contract/locale.ts'
import { LandingScreen } from '../features/landing/LandingScreen.tsx'
import { localizedHref } from '../lib/paths.ts'
import { LanguageLink } from '../ui/LanguageLink.tsx'
import { publicPagePath } from './PublicFrame.tsx'

/**
 * The landing page, static: rendered at build time and never hydrated (its links are plain links; what it needs
 * of JavaScript is the few lines of landing-boot.ts).
 */
export function PublicLanding({ i18n, locale }: { i18n: I18n; locale: Locale }) {
  const target: Locale = locale === 'fr' ? 'en' : 'fr'
  return (
    <I18nProvider i18n={i18n}>
      <LandingScreen
        signInHref={localizedHref(locale, '/sign-in')}
        languageSwitch={<LanguageLink target={target} href={publicPagePath('landing', target)} />}
      />
    </I18nProvider>
  )
}
