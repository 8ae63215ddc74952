import { Trans } from '@lingui/react/macro'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useSelectOrganization } from '../../../api/organizations.ts'
import { useProfile } from '../../../api/profile.ts'
import { tagLandingQuery } from '../../../api/tags.ts'
import { NotFoundPage } from '../../../app/ErrorPages.tsx'
import { PublicLayout } from '../../../app/PublicLayout.tsx'
import { startLoading } from '../../../app/start-loading.ts'
import { type MemberView, TagLandingScreen } from '../../../features/tags/TagLandingScreen.tsx'
import { localizedHref } from '../../../lib/paths.ts'
import { AppLink } from '../../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../../ui/Button.tsx'

export const Route = createFileRoute('/{-$locale}/tags/$publicId')({
  beforeLoad: ({ context }) => context.sessionReady,
  loader: ({ context, params }) => startLoading(context.queryClient, tagLandingQuery(params.publicId)),
  component: TagLanding,
})

function TagLanding() {
  const { publicId } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const profile = useProfile()
  const { select } = useSelectOrganization()
  const navigate = useNavigate()
  const openKeychain = ({ organization, keychain }: MemberView) => {
    if (!keychain) return null
    const href = localizedHref(locale, `/app/keychains/${keychain.id}`)
    if (organization.id === profile?.selectedOrganizationId) {
      return (
        <AppLink href={href} className={buttonClass('primary')}>
          <Trans>Open the keychain</Trans>
        </AppLink>
      )
    }
    const name = organization.name
    return (
      <Button
        onPress={async () => {
          // The keychain page shows the selected organization: switch to the tag's organization first.
          if (await select(organization.id)) await navigate({ href })
        }}
      >
        <Trans>Open the keychain in {name}</Trans>
      </Button>
    )
  }
  return (
    <PublicLayout>
      <TagLandingScreen publicId={publicId} notFound={<NotFoundPage />} openKeychain={openKeychain} />
    </PublicLayout>
  )
}
