import { createFileRoute, redirect } from '@tanstack/react-router'
import { PublicLayout } from '../../../app/PublicLayout.tsx'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import { currentProfile } from '../../../features/auth/session.ts'
import { TagListScreen } from '../../../features/tags/TagListScreen.tsx'
import { localizedHref } from '../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/tags/')({
  beforeLoad: async ({ context, location }) => {
    await context.sessionReady
    if (!currentProfile(context.queryClient)) {
      throw redirect({
        href: `${localizedHref(context.locale, '/sign-in')}?redirect=${encodeURIComponent(location.href)}`,
        replace: true,
      })
    }
  },
  component: () => (
    <PublicLayout>
      <RequireOrganization>
        {(organizationId) => <TagListScreen organizationId={organizationId} />}
      </RequireOrganization>
    </PublicLayout>
  ),
})
