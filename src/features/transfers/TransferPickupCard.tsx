import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { CircleCheck } from 'lucide-react'
import { lazy, Suspense, useRef, useState } from 'react'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Acceptance } from '../../../contract/receipts.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { type ConfirmPickup, transferQuery, useConfirmPickup } from '../../api/transfers.ts'
import { ApiError, refusedWith } from '../../lib/api.ts'
import { formatCalendarRange } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { refusalMessage } from '../../lib/refusal-message.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { REFUSAL_LABELS } from './labels.ts'
import { shouldOfferPush } from './push-offer-check.ts'
import { TransferStatusBadge } from './TransferStatusBadge.tsx'

const PushOffer = lazy(() => import('./PushOffer.tsx'))

/** The photo's refusals: not a JPEG a receipt's PDF can hold, or larger than the device should have made it. */
const PHOTO_REFUSALS: ReadonlySet<string> = new Set([ErrorCode.photoInvalid, ErrorCode.photoTooLarge])

// The signature pad and the photo resizing load when the recipient opens the acceptance, not with the scan screen.
const AcceptanceStep = lazy(() => import('./AcceptanceStep.tsx'))

/**
 * The transfer a scanned keychain concerns, with the pickup or return the caller may confirm now. One
 * confirmation keeps one Idempotency-Key, so pressing again after a lost answer is counted once.
 */
export function TransferPickupCard({
  transfer: scanned,
  confirm: send,
  onMoved,
}: {
  transfer: Transfer
  confirm: ConfirmPickup
  /** The transfer as the confirmed pickup or return left it (provisionally when queued). */
  onMoved?: (transfer: Transfer) => void
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const queryClient = useQueryClient()
  const pickup = useConfirmPickup(send)
  const [transfer, setTransfer] = useState(scanned)
  const [pending, setPending] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [queued, setQueued] = useState(false)
  const [accepting, setAccepting] = useState(false)
  const [offerPush, setOfferPush] = useState(false)
  const key = useRef<string>(crypto.randomUUID())
  const recipient = personName(transfer.recipient)
  const dates = formatCalendarRange(transfer.fromDate, transfer.toDate, locale)

  const confirm = async (acceptance?: Acceptance) => {
    setPending(true)
    setProblem(null)
    try {
      const answer = await pickup.mutateAsync({ transfer, idempotencyKey: key.current, acceptance })
      const done = answer.transfer
      setAccepting(false)
      setTransfer(done)
      onMoved?.(done)
      setQueued(answer.queued)
      // A first pickup is when push helps next: its return will be due. Offered once the server has it.
      if (!answer.queued && done.status === 'TRANSFERRED') setOfferPush(shouldOfferPush())
      key.current = crypto.randomUUID()
      toasts.add({
        severity: 'success',
        summary: answer.queued
          ? t`Saved on this device: it will be sent when the network returns.`
          : done.status === 'RETURNED'
            ? t`Return confirmed.`
            : t`Pickup confirmed.`,
        life: 5000,
      })
    } catch (error) {
      if (refusedWith(error, 404)) {
        setProblem(t`This transfer is no longer open to you: it may have been cancelled.`)
        return
      }
      // Refused before anything was stored: the acceptance stays open to remove the photo or choose another.
      if (refusedWith(error, 400) && PHOTO_REFUSALS.has(error.code)) {
        setProblem(
          t`The server could not use this photo. Remove it or choose another one, then accept again.`,
        )
        return
      }
      // A refusal is final for this key; a lost answer keeps the key, so pressing again cannot count twice.
      if (!refusedWith(error, 409)) {
        setProblem(
          error instanceof ApiError && !error.isNetworkError
            ? t`The server refused this confirmation.`
            : t`The confirmation did not reach the server. Check your connection and press again.`,
        )
        return
      }
      key.current = crypto.randomUUID()
      setAccepting(false)
      setProblem(refusalMessage(error, t`This pickup is not possible now.`))
      // Show the transfer as it is now (cancelled, already returned…), so the button does not invite a retry.
      const fresh = await queryClient
        .fetchQuery({ ...transferQuery(transfer.id), staleTime: 0 })
        .catch(() => null)
      if (fresh) setTransfer(fresh)
    } finally {
      setPending(false)
    }
  }

  return (
    <section
      aria-label={t`Transfer`}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <TransferStatusBadge transfer={transfer} />
        <span className="text-sm text-slate-700">
          <Trans>
            To {recipient} · {dates}
          </Trans>
        </span>
      </div>
      {transfer.next === 'PICKUP' && accepting ? (
        <Suspense fallback={<p>…</p>}>
          <AcceptanceStep
            recipientName={recipient}
            pending={pending}
            onAccept={(acceptance) => void confirm(acceptance)}
            onCancel={() => setAccepting(false)}
          />
        </Suspense>
      ) : transfer.next === 'PICKUP' ? (
        <Button onPress={() => setAccepting(true)} isDisabled={pending} className="self-start">
          <CircleCheck aria-hidden className="size-4" />
          <Trans>Confirm the pickup</Trans>
        </Button>
      ) : transfer.next === 'RETURN' ? (
        <Button onPress={() => void confirm()} isDisabled={pending} className="self-start">
          <CircleCheck aria-hidden className="size-4" />
          <Trans>Confirm the return</Trans>
        </Button>
      ) : transfer.status === 'RETURNED' ? (
        <p className="font-medium text-emerald-800">
          <Trans>Returned: custody is back with the organization.</Trans>
        </p>
      ) : transfer.status === 'TRANSFERRED' &&
        (transfer.refusal === 'not_member' || transfer.refusal === 'own_return') ? (
        <p className="font-medium text-emerald-800">
          <Trans>Picked up: you now hold this keychain.</Trans>
        </p>
      ) : transfer.refusal ? (
        <p className="text-slate-700">{i18n._(REFUSAL_LABELS[transfer.refusal])}</p>
      ) : null}
      {offerPush ? (
        <Suspense fallback={null}>
          <PushOffer />
        </Suspense>
      ) : null}
      {queued ? (
        <p className="font-medium text-amber-900" data-testid="waiting-to-sync">
          <Trans>Waiting to sync</Trans>
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="font-medium text-red-800">
          {problem}
        </p>
      ) : null}
    </section>
  )
}
