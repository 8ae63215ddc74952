import { createFileRoute, redirect } from '@tanstack/react-router'
import { currentProfile } from '../../../api/profile.ts'
import { PublicLayout } from '../../../app/PublicLayout.tsx'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
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
