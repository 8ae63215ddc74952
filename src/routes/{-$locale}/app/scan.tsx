import { Trans } from '@lingui/react/macro'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { lazy, Suspense, useEffect, useState } from 'react'
import type { ScanResult } from '../../../../contract/scans.ts'
import type { Tag } from '../../../../contract/tags.ts'
import type { Transfer } from '../../../../contract/transfers.ts'
import { useProfile } from '../../../api/profile.ts'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import type { PairedTag } from '../../../features/scan/PairingPanel.tsx'
import { ScanScreen } from '../../../features/scan/ScanScreen.tsx'
import { useTagExample } from '../../../features/scan/tag-prefix.ts'
import { afterLoadWhenIdle } from '../../../lib/idle.ts'
import { localizedHref } from '../../../lib/paths.ts'

// The outbox (Dexie) loads with the first scan, not with the screen. Once loaded, a scan starts at once, in
// the keypress itself: its write runs while the screen re-renders (an `await import()` would wait for that).
type FieldActions = typeof import('../../../offline/field.ts')
let loadedFieldActions: FieldActions | null = null
const fieldActions = async () => {
  loadedFieldActions ??= await import('../../../offline/field.ts')
  return loadedFieldActions
}
const withFieldActions = <T,>(run: (actions: FieldActions) => Promise<T>): Promise<T> =>
  loadedFieldActions ? run(loadedFieldActions) : fieldActions().then(run)

// The pairing of a free tag loads when one is scanned or the pairing session is switched on.
const ScanPairing = lazy(() => import('../../../features/scan/PairingPanel.tsx'))

// The result card and the transfer's pickup show only after a scan: they load once the screen is idle (or with
// the first scan, whichever comes first), off the first paint of the field's most used screen. The scan screen
// holds the Suspense boundary around the result.
const loadResultCard = () => import('../../../features/scan/ScanResultCard.tsx')
const loadPickupCard = () => import('../../../features/transfers/TransferPickupCard.tsx')
const ScanResultCard = lazy(() => loadResultCard().then((module) => ({ default: module.ScanResultCard })))
// After a return: the hook it goes back on (loads with the return, not with the screen).
const HookReturnCard = lazy(() =>
  import('../../../features/scan/HookReturnCard.tsx').then((module) => ({ default: module.HookReturnCard })),
)
const TransferPickupCard = lazy(() =>
  loadPickupCard().then((module) => ({ default: module.TransferPickupCard })),
)

export const Route = createFileRoute('/{-$locale}/app/scan')({
  component: Scan,
})

function Scan() {
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const profile = useProfile()
  const selected = profile?.selectedOrganizationId
  const example = useTagExample(selected ?? '')
  useEffect(
    () =>
      afterLoadWhenIdle(() => {
        void loadResultCard()
        void loadPickupCard()
      }),
    [],
  )
  // The transfer as the last confirmation on a result card left it: the card then states the keychain after it.
  const [moved, setMoved] = useState<{ scanId: string; transfer: Transfer } | null>(null)
  // Pairing session: tag after tag, one name each; the tags paired since it was switched on.
  const [session, setSession] = useState(false)
  const [paired, setPaired] = useState<PairedTag[]>([])
  const permissions = profile?.permissions ?? []
  const canCreate = permissions.includes('create__keychain')
  const pairing = (organizationId: string, tag?: Tag) => (
    <Suspense>
      <ScanPairing
        key={tag?.id}
        tag={tag}
        session={session}
        paired={paired}
        context={field(organizationId)}
        onPaired={(done) => setPaired((all) => [...all, done])}
      />
    </Suspense>
  )
  const field = (organizationId: string) => ({
    userId: profile?.id ?? '',
    organizationId,
    permissions,
  })
  // A recipient may scan a keychain of another of their organizations: its page opens only in that one.
  const opensHere = (result: ScanResult) =>
    result.status === 'resolved' &&
    result.actions.includes('read__keychain') &&
    (!result.transfer || result.transfer.organizationId === selected)
  return (
    <RequireOrganization>
      {(organizationId) => (
        <ScanScreen
          placeholder={example}
          canReceive={permissions.includes('create__handover')}
          send={(value) => withFieldActions((actions) => actions.submitScan(field(organizationId), value))}
          extra={
            canCreate ? (
              <>
                <label className="flex min-h-11 items-center gap-2 font-medium text-slate-800">
                  <input
                    type="checkbox"
                    checked={session}
                    onChange={(event) => {
                      setSession(event.target.checked)
                      setPaired([])
                    }}
                    className="size-5"
                  />
                  <Trans>Pairing session</Trans>
                </label>
                {session ? pairing(organizationId) : null}
              </>
            ) : null
          }
          renderResult={(result, queued) => (
            <>
              <ScanResultCard
                result={result}
                offline={queued}
                moved={moved && moved.scanId === result.scanId ? moved.transfer : null}
                canOpenKeychain={opensHere(result)}
                viewerId={profile?.id ?? ''}
                canHandOver={permissions.includes('create__handover')}
                transfer={
                  result.status === 'resolved' && result.transfer ? (
                    <TransferPickupCard
                      key={result.scanId}
                      transfer={result.transfer}
                      onMoved={(transfer) => setMoved({ scanId: result.scanId, transfer })}
                      confirm={async (transfer, _key, acceptance) =>
                        (await fieldActions()).submitPickup(field(organizationId), transfer, acceptance)
                      }
                    />
                  ) : null
                }
              />
              {result.status === 'resolved' &&
              result.keychain &&
              moved?.scanId === result.scanId &&
              moved.transfer.status === 'RETURNED' &&
              permissions.includes('read__place') ? (
                <HookReturnCard context={field(organizationId)} keychain={result.keychain} />
              ) : null}
              {result.status === 'resolved' &&
              !result.keychain &&
              (canCreate || permissions.includes('create__key'))
                ? pairing(organizationId, result.tag)
                : null}
            </>
          )}
          onResult={(result, queued) => {
            // A tag on a keychain leads straight to that keychain, unless there is a pickup or return to
            // confirm (or the caller may not open it); anything else, and any scan made offline, stays here.
            if (
              !queued &&
              !session &&
              result.status === 'resolved' &&
              result.keychain &&
              !result.transfer?.next &&
              opensHere(result)
            ) {
              void navigate({ href: localizedHref(locale, `/app/keychains/${result.keychain.id}`) })
            }
          }}
        />
      )}
    </RequireOrganization>
  )
}
