import type { I18n } from '@lingui/core'
import type { Profile } from '../../contract/auth.ts'
import type { Locale } from '../../contract/locale.ts'
import { SignInPage } from '../features/auth/SignInPage.tsx'
import { PublicFrame, PublicLanguageLink } from './PublicFrame.tsx'

export function PublicSignIn({
  i18n,
  locale,
  onSignedIn,
}: {
  i18n: I18n
  locale: Locale
  onSignedIn: (profile: Profile) => void
}) {
  return (
    <PublicFrame i18n={i18n}>
      <SignInPage
        locale={locale}
        languageSwitch={<PublicLanguageLink page="sign-in" locale={locale} />}
        onSignedIn={onSignedIn}
      />
    </PublicFrame>
  )
}
