import { Trans } from '@lingui/react/macro'
import { CircleHelp, HandHelping, KeyRound } from 'lucide-react'
import { type ReactNode, useId } from 'react'
import type { ScanResult } from '../../../contract/scans.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { TruthLine } from './TruthLine.tsx'
import { scanTruth } from './truth.ts'

/** What a scanned value resolved to, with what the caller may do next. */
export function ScanResultCard({
  result,
  transfer,
  canOpenKeychain,
  offline = false,
  moved = null,
  viewerId = '',
  canHandOver = false,
}: {
  result: ScanResult
  /** The caller's role may hand keychains over: the one holding it gets "Hand over" (offline too). */
  canHandOver?: boolean
  /** Who scanned: the card says "with you" when they hold the keychain. */
  viewerId?: string
  /** The keychain's transfer as the pickup or return just confirmed on this card left it. */
  moved?: Transfer | null
  /** Resolved from this device's copy (no network): an unknown tag may just be missing from it. */
  offline?: boolean
  /** Whether its keychain's page opens in the selected organization (default: the role may read keychains). */
  canOpenKeychain?: boolean
  /** The keychain's transfer and its pickup or return, composed in by the route. */
  transfer?: ReactNode
}) {
  const href = useHref()
  const truthId = useId()
  if (result.status === 'unknown') {
    return (
      <Card className="flex gap-3">
        <CircleHelp aria-hidden className="size-6 shrink-0 text-amber-700" />
        <div>
          <h2 className="font-semibold text-slate-900">
            <Trans>Unknown tag</Trans>
          </h2>
          <p className="text-slate-700">
            {offline ? (
              <Trans>
                “{result.value}” is not in this device's copy of your organization's tags. The scan is kept
                and will be checked when the network returns.
              </Trans>
            ) : (
              <Trans>
                “{result.value}” is not a tag of your organization. Check the code, or scan the QR code
                itself.
              </Trans>
            )}
          </p>
        </div>
      </Card>
    )
  }
  if (result.status === 'lost') {
    const { code, name } = result.tag
    return (
      <Card className="flex flex-col gap-2 bg-red-50">
        <h2 className="font-semibold text-red-900">
          <Trans>Lost tag</Trans>
        </h2>
        <p className="text-slate-800">
          <Trans>
            Tag {code} ({name}) was declared lost: it no longer opens its keychain. Keep it aside and give it
            back to your organization.
          </Trans>
        </p>
        <p className="text-sm text-slate-700">
          {offline ? (
            <Trans>Its administrators will be told of this scan when the network returns.</Trans>
          ) : (
            <Trans>Its administrators have been told of this scan.</Trans>
          )}
        </p>
      </Card>
    )
  }
  if (result.status === 'foreign') {
    return (
      <Card className="flex flex-col gap-3">
        <h2 className="font-semibold text-slate-900">
          <Trans>This tag is not one you can open here</Trans>
        </h2>
        <AppLink href={href(`/tags/${result.publicId}`)} className={buttonClass('secondary', 'self-start')}>
          <Trans>Open its public page</Trans>
        </AppLink>
      </Card>
    )
  }
  const { tag, keychain } = result
  const truth = scanTruth(result, moved, viewerId)
  const canOpen = canOpenKeychain ?? result.actions.includes('read__keychain')
  return (
    <Card className="flex flex-col gap-3">
      <p className="flex items-center gap-2 text-sm font-semibold text-emerald-800">
        <KeyRound aria-hidden className="size-4" />
        <Trans>Tag {tag.code}</Trans>
      </p>
      {/* The focus lands on this heading after a scan: the line of truth is read with it. */}
      <h2 aria-describedby={truth ? truthId : undefined} className="text-xl font-bold text-slate-900">
        {keychain?.name ?? tag.name}
      </h2>
      <TruthLine id={truthId} truth={truth} />
      {keychain ? (
        <>
          {transfer}
          {/* Held outright (not out on a transfer, which has a due day): handed from phone to phone. */}
          {canHandOver && truth?.kind === 'mine' && truth.due === null ? (
            <AppLink
              href={href(`/app/handover/${keychain.id}`)}
              className={buttonClass('secondary', 'self-start')}
            >
              <HandHelping aria-hidden className="size-4" />
              <Trans>Hand over</Trans>
            </AppLink>
          ) : null}
          {canOpen ? (
            <AppLink
              href={href(`/app/keychains/${keychain.id}`)}
              className={buttonClass(transfer ? 'secondary' : 'primary', 'self-start')}
            >
              <Trans>Open the keychain</Trans>
            </AppLink>
          ) : null}
        </>
      ) : null}
    </Card>
  )
}
