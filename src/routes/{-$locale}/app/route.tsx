import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Outlet, redirect, useNavigate } from '@tanstack/react-router'
import type { Locale } from '../../../../contract/locale.ts'
import { deleteSession } from '../../../api/auth.ts'
import { currentProfile, profileQuery, useUpdateProfile } from '../../../api/profile.ts'
import { AppShell } from '../../../app/AppShell.tsx'
import { DeferredMount } from '../../../app/DeferredMount.tsx'
import { setSignedInProfile } from '../../../app/session.ts'
import { useFieldSync } from '../../../app/useFieldSync.ts'
import { AbilityProvider } from '../../../lib/ability.tsx'
import { localizedHref } from '../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app')({
  beforeLoad: async ({ context, location }) => {
    await context.sessionReady
    const profile = currentProfile(context.queryClient)
    if (!profile) {
      throw redirect({
        href: `${localizedHref(context.locale, '/sign-in')}?redirect=${encodeURIComponent(location.href)}`,
        replace: true,
      })
    }
    return { profile }
  },
  component: AppLayout,
})

function AppLayout() {
  const { locale, profile: initial } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const updateProfile = useUpdateProfile()
  const { data: profile } = useQuery({ ...profileQuery, initialData: initial })
  useFieldSync(profile ?? initial)
  const signOut = async () => {
    await deleteSession()
    setSignedInProfile(queryClient, null)
    await navigate({ href: localizedHref(locale, '/sign-in'), replace: true })
  }
  // The account's language follows the switch, so its mail is written in the language it reads.
  const saveLocale = (next: Locale) => {
    updateProfile.mutate(
      { locale: next },
      { onError: (error) => console.warn('Saving the language failed', error) },
    )
  }
  if (!profile) return null
  return (
    <AbilityProvider permissions={profile.permissions}>
      <AppShell
        profile={profile}
        locale={locale}
        onSignOut={() => void signOut()}
        onLocaleSwitch={saveLocale}
        onOrdered={(order) => void navigate({ href: localizedHref(locale, `/app/orders/${order.id}`) })}
      >
        <DeferredMount>
          <Outlet />
        </DeferredMount>
      </AppShell>
    </AbilityProvider>
  )
}
