import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '../../../app/ErrorPages.tsx'
import { PublicLayout } from '../../../app/PublicLayout.tsx'
import { TagLandingScreen } from '../../../features/tags/TagLandingScreen.tsx'

export const Route = createFileRoute('/{-$locale}/tags/$publicId')({
  beforeLoad: ({ context }) => context.sessionReady,
  component: TagLanding,
})

function TagLanding() {
  const { publicId } = Route.useParams()
  return (
    <PublicLayout>
      <TagLandingScreen publicId={publicId} notFound={<NotFoundPage />} />
    </PublicLayout>
  )
}
