import type { I18n } from '@lingui/core'
import type { Locale } from '../../contract/locale.ts'
import { LandingScreen } from '../features/landing/LandingScreen.tsx'
import { localizedHref } from '../lib/paths.ts'
import { PublicFrame, PublicLanguageLink } from './PublicFrame.tsx'

export function PublicLanding({ i18n, locale }: { i18n: I18n; locale: Locale }) {
  return (
    <PublicFrame i18n={i18n}>
      <LandingScreen
        signInHref={localizedHref(locale, '/sign-in')}
        languageSwitch={<PublicLanguageLink page="landing" locale={locale} />}
      />
    </PublicFrame>
  )
}
