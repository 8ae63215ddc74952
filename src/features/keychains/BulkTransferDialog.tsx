import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { calendarDayIn } from '../../../contract/calendar-day.ts'
import type { BulkTransfer } from '../../../contract/keychain-bulk.ts'
import type { Member } from '../../../contract/organizations.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { DateField } from '../../ui/DateField.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { custodianOptions } from './custodians.ts'

const BY_EMAIL = 'email'

/**
 * Who receives the selected keychains (a member or contact, or a new address invited as a contact) and for
 * which days: the same choices as one authorization, once for all of them.
 */
export function BulkTransferDialog({
  isOpen,
  onOpenChange,
  title,
  members,
  isPending,
  onAuthorize,
}: {
  isOpen: boolean
  onOpenChange: (open: boolean) => void
  title: React.ReactNode
  members: Member[]
  isPending: boolean
  onAuthorize: (transfer: Omit<BulkTransfer, 'ids' | 'filter'>) => void
}) {
  const { t, i18n } = useLingui()
  const today = calendarDayIn('Europe/Paris', new Date())
  const [recipient, setRecipient] = useState('')
  const [email, setEmail] = useState('')
  const [fromDate, setFromDate] = useState(today)
  const [toDate, setToDate] = useState(shiftCalendarDay(today, 1))
  const ready =
    (recipient === BY_EMAIL ? email.includes('@') : recipient !== '') && fromDate !== '' && toDate > fromDate
  const locale = i18n.locale === 'en' ? 'en' : 'fr'
  return (
    <ConfirmDialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={title}
      confirmLabel={<Trans>Authorize</Trans>}
      isPending={isPending || !ready}
      onConfirm={() =>
        onAuthorize({
          recipient:
            recipient === BY_EMAIL ? { kind: 'email', email, locale } : { kind: 'member', userId: recipient },
          fromDate,
          toDate,
        })
      }
    >
      <div className="flex flex-col gap-4">
        <SelectField
          label={<Trans>Recipient</Trans>}
          name="recipient"
          value={recipient}
          onChange={setRecipient}
          options={[
            { value: '', label: t`Choose a member` },
            ...custodianOptions(members),
            { value: BY_EMAIL, label: t`Someone else (by e-mail)` },
          ]}
        />
        {recipient === BY_EMAIL ? (
          <TextField
            label={<Trans>E-mail</Trans>}
            name="email"
            type="email"
            value={email}
            onChange={setEmail}
          />
        ) : null}
        <DateField
          label={<Trans>From</Trans>}
          name="fromDate"
          value={fromDate}
          min={today}
          onChange={setFromDate}
        />
        <DateField
          label={<Trans>Back on</Trans>}
          name="toDate"
          value={toDate}
          min={fromDate ? shiftCalendarDay(fromDate, 1) : today}
          onChange={setToDate}
        />
      </div>
    </ConfirmDialog>
  )
}
