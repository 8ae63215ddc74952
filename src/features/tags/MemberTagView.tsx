import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, type ReactNode, Suspense } from 'react'
import type { TagLanding } from '../../../contract/tags.ts'
import { personName } from '../../lib/labels.ts'
import { Card } from '../../ui/Card.tsx'
import { QrCode } from '../../ui/QrCode.tsx'
import { ReprintTagPanel } from './LabelPrintPanel.tsx'

// Declaring lost and ordering a replacement: loaded after the page, for members only.
const LostTagPanel = lazy(() =>
  import('./LostTagPanel.tsx').then((module) => ({ default: module.LostTagPanel })),
)

export type MemberView = Extract<TagLanding, { view: 'member' }>

/** A tag as a member of its organization sees it: its QR code, key, keychain, custodian, and what to do. */
export function MemberTagView({
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
