import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { lazy, type ReactNode, Suspense } from 'react'
import { tagLandingQuery } from '../../api/tags.ts'
import { ApiError } from '../../lib/api.ts'
import { Card } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { FoundReportForm } from './FoundReportForm.tsx'

import type { MemberView } from './MemberTagView.tsx'

export type { MemberView }

// A member's view (QR code, reprint and lost panels) loads when the answer says member: a finder, who opens
// most of these pages, never downloads it.
const MemberTagView = lazy(() =>
  import('./MemberTagView.tsx').then((module) => ({ default: module.MemberTagView })),
)

function FoundView({
  publicId,
  organizationName,
  code,
}: {
  publicId: string
  organizationName: string
  code: string
}) {
  return (
    <Card className="flex flex-col gap-5">
      <div className="flex items-start gap-3">
        <KeyRound aria-hidden className="mt-1 size-7 shrink-0 text-brand-700" />
        <div>
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Found these keys?</Trans>
          </h1>
          <p className="mt-2 text-slate-700">
            <Trans>
              They belong to <strong>{organizationName}</strong> (tag {code}). Leave a message and the owners
              will get back to you. Thank you!
            </Trans>
          </p>
        </div>
      </div>
      <FoundReportForm publicId={publicId} />
    </Card>
  )
}

/** `/tags/{publicId}`: the tag for a member of its organization, the neutral "found these keys?" page for anyone else. */
export function TagLandingScreen({
  publicId,
  notFound,
  openKeychain,
}: {
  publicId: string
  notFound: ReactNode
  /** The way to the keychain: a link in the selected organization, or switching to the tag's organization first. */
  openKeychain: (landing: MemberView) => ReactNode
}) {
  const { data, isPending, isError, error, refetch } = useQuery(tagLandingQuery(publicId))
  if (isPending) return <LoadingState label={<Trans>Loading the tag…</Trans>} />
  if (isError) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return notFound
    return <ErrorState message={<Trans>The tag could not be loaded.</Trans>} onRetry={() => void refetch()} />
  }
  return data.view === 'member' ? (
    <Suspense fallback={<LoadingState label={<Trans>Loading the tag…</Trans>} />}>
      <MemberTagView landing={data} openKeychain={openKeychain} />
    </Suspense>
  ) : (
    <FoundView publicId={publicId} organizationName={data.organization.name} code={data.code} />
  )
}
