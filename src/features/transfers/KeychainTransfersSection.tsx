import { Trans } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ArrowRightLeft } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import type { Member } from '../../../contract/organizations.ts'
import { useProfile } from '../../api/profile.ts'
import { keychainTransfersQuery } from '../../api/transfers.ts'
import { useAbility } from '../../lib/ability.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { ReceiptDisclosure, readsReceiptOf } from './ReceiptDisclosure.tsx'
import { TransferActions } from './TransferActions.tsx'
import { TransferTable } from './TransferTable.tsx'

// The form (date pickers and their calendar) loads when someone opens it, not with every keychain page.
const AuthorizeTransferPanel = lazy(async () => ({
  default: (await import('./AuthorizeTransferPanel.tsx')).AuthorizeTransferPanel,
}))

/** The transfer authorizations of a keychain, past and current, and the way to authorize one more. */
export function KeychainTransfersSection({
  organizationId,
  keychain,
  members,
  timeZone,
}: {
  organizationId: string
  keychain: { id: string; custodianId: string | null }
  members: Member[]
  timeZone: string
}) {
  const ability = useAbility()
  const [authorizing, setAuthorizing] = useState(false)
  const { cursor, pager } = useCursorPages()
  const list = useQuery({
    ...keychainTransfersQuery(organizationId, keychain.id, cursor),
    placeholderData: keepPreviousData,
  })
  const canCancel = ability.can('delete', 'transfer')
  const canManage = ability.can('create', 'transfer')
  const viewer = { id: useProfile()?.id ?? '', managesTransfers: canManage }
  return (
    <Card className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">
          <Trans>Transfer authorizations</Trans>
        </h2>
        {ability.can('create', 'transfer') && !authorizing ? (
          <Button onPress={() => setAuthorizing(true)}>
            <ArrowRightLeft aria-hidden className="size-4" />
            <Trans>Authorize a transfer</Trans>
          </Button>
        ) : null}
      </div>
      {authorizing ? (
        <Suspense fallback={<LoadingState label={<Trans>Loading the form…</Trans>} />}>
          <AuthorizeTransferPanel
            organizationId={organizationId}
            keychainId={keychain.id}
            custodianId={keychain.custodianId}
            members={members}
            timeZone={timeZone}
            onCreated={() => setAuthorizing(false)}
            onCancel={() => setAuthorizing(false)}
          />
        </Suspense>
      ) : null}
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the authorizations…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The authorizations could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <p className="text-slate-700">
          <Trans>This keychain has never been transferred.</Trans>
        </p>
      ) : (
        <>
          <TransferTable
            transfers={list.data.data}
            view="keychain"
            actions={(transfer) => (
              <TransferActions transfer={transfer} canCancel={canCancel} canManage={canManage} />
            )}
            details={(transfer) =>
              readsReceiptOf(transfer, viewer) ? <ReceiptDisclosure transferId={transfer.id} /> : null
            }
          />
          {pager(list.data.nextCursor)}
        </>
      )}
    </Card>
  )
}
