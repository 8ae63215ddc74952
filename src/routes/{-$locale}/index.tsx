import { createFileRoute, redirect } from '@tanstack/react-router'
import { currentProfile } from '../../api/profile.ts'
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx'
import { LandingScreen } from '../../features/landing/LandingScreen.tsx'
import { localizedHref } from '../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/')({
  // The landing page is for visitors: a signed-in account goes to the app (the static page's script does the same).
  beforeLoad: async ({ context }) => {
    await context.sessionReady
    if (currentProfile(context.queryClient))
      throw redirect({ href: localizedHref(context.locale, '/app'), replace: true })
  },
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
