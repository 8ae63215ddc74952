import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { lazy, type ReactNode, Suspense } from 'react'
import type { TagLanding } from '../../../contract/tags.ts'
import { tagLandingQuery } from '../../api/tags.ts'
import { ApiError } from '../../lib/api.ts'
import { personName } from '../../lib/labels.ts'
import { Card } from '../../ui/Card.tsx'
import { QrCode } from '../../ui/QrCode.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { FoundReportForm } from './FoundReportForm.tsx'
import { ReprintTagPanel } from './LabelPrintPanel.tsx'

// Declaring lost and ordering a replacement: loaded after the page, for members only.
const LostTagPanel = lazy(() =>
  import('./LostTagPanel.tsx').then((module) => ({ default: module.LostTagPanel })),
)

export type MemberView = Extract<TagLanding, { view: 'member' }>

function MemberTagView({
  landing,
  openKeychain,
}: {
  landing: MemberView
  openKeychain: (landing: MemberView) => ReactNode
}) {
  const { t } = useLingui()
  const { tag, keychain, organization } = landing
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold text-slate-900">
        <Trans>Tag {tag.code}</Trans>
      </h1>
      <Card className="flex flex-col gap-6 sm:flex-row">
        <div className="flex flex-col items-center gap-3">
          <QrCode value={tag.url} label={t`QR code of tag ${tag.code}`} />
          <span
            className="rounded-md px-3 py-1 font-mono text-lg font-bold ring-1 ring-slate-300"
            style={{ color: tag.foregroundColor, backgroundColor: tag.backgroundColor }}
          >
            {tag.code}
          </span>
        </div>
        <dl className="grid flex-1 content-start gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">
            <Trans>Tag</Trans>
          </dt>
          <dd className="text-slate-900">{tag.name}</dd>
          <dt className="font-medium text-slate-600">
            <Trans>Organization</Trans>
          </dt>
          <dd className="text-slate-900">{organization.name}</dd>
          <dt className="font-medium text-slate-600">
            <Trans>Key</Trans>
          </dt>
          <dd className="text-slate-900">{tag.key ? tag.key.name : <Trans>Not on a key yet</Trans>}</dd>
          <dt className="font-medium text-slate-600">
            <Trans>Keychain</Trans>
          </dt>
          <dd className="text-slate-900">{keychain ? keychain.name : '—'}</dd>
          <dt className="font-medium text-slate-600">
            <Trans>Custodian</Trans>
          </dt>
          <dd className="text-slate-900">
            {keychain?.custodian ? personName(keychain.custodian) : <Trans>nobody</Trans>}
          </dd>
        </dl>
        {keychain ? <div className="sm:self-end">{openKeychain(landing)}</div> : null}
      </Card>
      <Suspense fallback={null}>
        <LostTagPanel tag={tag} organizationId={organization.id} permissions={landing.permissions} />
      </Suspense>
      <ReprintTagPanel tagId={tag.id} permissions={landing.permissions} />
    </>
  )
}

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
    <MemberTagView landing={data} openKeychain={openKeychain} />
  ) : (
    <FoundView publicId={publicId} organizationName={data.organization.name} code={data.code} />
  )
}
