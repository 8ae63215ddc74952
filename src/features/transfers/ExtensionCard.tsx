import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { shiftCalendarDay, type Transfer } from '../../../contract/transfers.ts'
import { formatCalendarDate } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'

export type AskForMoreTime = (
  transfer: Transfer,
  toDate: string,
) => Promise<{ transfer: Transfer; queued: boolean }>

/** The holder may ask while the keychain is out (late included), or before a pickup whose window is open. */
export const canAskForMoreTime = (transfer: Transfer) =>
  transfer.extension?.status !== 'PENDING' &&
  (transfer.status === 'TRANSFERRED' ||
    transfer.status === 'RETURNING' ||
    (transfer.status === 'SCHEDULED' && !transfer.expired))

/** The earliest day to ask for: after the current to-date, and after today. */
function earliestDay(transfer: Transfer, today: string): string {
  // `YYYY-MM-DD` sorts as the days do.
  return [shiftCalendarDay(transfer.toDate, 1), shiftCalendarDay(today, 1)].sort().at(-1) as string
}

/**
 * On the holder's request page: the state of their request for more time, and the form to ask for it. The
 * request goes through the device's outbox: made offline, it waits here as "pending" until it can be sent.
 */
export function ExtensionCard({
  transfer,
  today,
  ask,
  onAsked,
}: {
  transfer: Transfer
  /** Today's `YYYY-MM-DD` where the holder is. */
  today: string
  ask: AskForMoreTime
  onAsked: (transfer: Transfer) => void
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  const min = earliestDay(transfer, today)
  const earliest = formatCalendarDate(min, locale)
  const [toDate, setToDate] = useState(min)
  const [pending, setPending] = useState(false)
  const [queued, setQueued] = useState(false)
  const { extension } = transfer
  const asked = extension ? formatCalendarDate(extension.toDate, locale) : ''
  const previous = extension ? formatCalendarDate(extension.previousToDate, locale) : ''
  const submit = async () => {
    if (toDate < min) return
    setPending(true)
    try {
      const answer = await ask(transfer, toDate)
      setQueued(answer.queued)
      onAsked(answer.transfer)
      toasts.add({
        severity: 'success',
        summary: answer.queued
          ? t`Your request is kept on this device: it will be sent when the network is back.`
          : t`Your request has been sent to the organization.`,
        life: 5000,
      })
    } catch (error) {
      failed(t`Your request could not be sent.`, error)
    } finally {
      setPending(false)
    }
  }
  const status =
    extension?.status === 'PENDING' ? (
      <p>
        {queued ? (
          <Trans>
            You ask to keep the keychain until {asked}. Waiting to sync: the request leaves this device when
            the network is back.
          </Trans>
        ) : (
          <Trans>You asked to keep the keychain until {asked}: waiting for the organization's answer.</Trans>
        )}
      </p>
    ) : extension?.status === 'APPROVED' ? (
      <p>
        <Trans>More time granted: the keychain is now due back on {asked}.</Trans>
      </p>
    ) : extension?.status === 'REFUSED' ? (
      <p>
        <Trans>Your request for more time was refused: the keychain was due back on {previous}.</Trans>
      </p>
    ) : null
  if (!status && !canAskForMoreTime(transfer)) return null
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>More time</Trans>
      </h2>
      {status}
      {canAskForMoreTime(transfer) ? (
        <form
          noValidate
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault()
            void submit()
          }}
        >
          <TextField
            label={<Trans>Keep it until</Trans>}
            name="toDate"
            type="date"
            min={min}
            value={toDate}
            onChange={setToDate}
            error={toDate < min ? t`Choose a day from ${earliest}.` : undefined}
          />
          <Button type="submit" isDisabled={pending || toDate < min}>
            <Trans>Ask for more time</Trans>
          </Button>
        </form>
      ) : null}
    </Card>
  )
}
