import { createFileRoute } from '@tanstack/react-router'
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx'
import { LandingScreen } from '../../features/landing/LandingScreen.tsx'
import { localizedHref } from '../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/')({
  component: Landing,
})

function Landing() {
  const { locale } = Route.useRouteContext()
  return (
    <LandingScreen
      signInHref={localizedHref(locale, '/sign-in')}
      languageSwitch={<LanguageSwitch locale={locale} />}
    />
  )
}
