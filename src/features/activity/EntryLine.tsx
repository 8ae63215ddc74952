import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { MouseEvent, ReactNode } from 'react'
import type { ActivityEntry, ActivityRefs } from '../../../contract/activity.ts'
import type { ActivityFilter } from '../../api/activity.ts'
import { formatCalendarDate, formatCalendarRange } from '../../lib/format.ts'
import { personName, ROLE_LABELS, STATUS_LABELS } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { FOUND_REPORT_STATUS_LABELS, HANDOVER_REFUSAL_LABELS } from './labels.ts'

/** What a click on a keychain, tag or person of an entry does: the same view, narrowed to it. */
export type Narrow = {
  /** The address of the view narrowed this way (a real link: it opens in a new tab, it can be copied). */
  href: (narrowed: ActivityFilter) => string
  apply: (narrowed: ActivityFilter) => void
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

/** An inline link to the view narrowed to what it names; a plain click narrows in place. */
export function NarrowLink({
  narrow,
  to,
  label,
  className = 'font-semibold text-brand-700 underline decoration-brand-300 underline-offset-4 hover:decoration-brand-700',
  children,
}: {
  narrow: Narrow
  to: ActivityFilter
  label: string
  className?: string
  children: ReactNode
}) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return
    event.preventDefault()
    narrow.apply(to)
  }
  return (
    <a href={narrow.href(to)} onClick={follow} title={label} className={className}>
      {children}
    </a>
  )
}

/**
 * What an entry of the ledger did, in one sentence of the reader's language: the keychain (its name now, or the
 * one the entry recorded once it is gone), the tag's code, the key, the people (a custody's from → to, a
 * transfer's recipient), the window, a report's or a member's change. Keychains and tags narrow the view.
 */
export function EntryLine({
  entry,
  refs,
  narrow,
}: {
  entry: ActivityEntry
  refs: ActivityRefs
  narrow: Narrow
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const payload = entry.payload
  const recordedName = text(payload.name) ?? text(record(payload.name).to)
  // A keychain's entries record its name (what a deleted keychain lives on as); a key's record the key's.
  const recordedKeychain = entry.kind.startsWith('keychain.') ? recordedName : null

  const keychainOf = (id: string | undefined): ReactNode => {
    if (!id) return <Trans>a keychain</Trans>
    const known = refs.keychains[id]
    const name = known?.name ?? recordedKeychain
    if (!name) return <Trans>a keychain since deleted</Trans>
    return (
      <>
        <NarrowLink narrow={narrow} to={{ keychain: id }} label={t`Only the activity of keychain ${name}`}>
          {name}
        </NarrowLink>
        {(known?.deleted || !known) && entry.kind !== 'keychain.deleted' ? (
          <>
            {' '}
            <Trans>(deleted)</Trans>
          </>
        ) : null}
      </>
    )
  }
  const tagOf = (id: string | undefined): ReactNode => {
    const code = id ? refs.tags[id]?.code : undefined
    if (!id || !code) return <Trans>a tag</Trans>
    return (
      <NarrowLink narrow={narrow} to={{ tag: id }} label={t`Only the activity of tag ${code}`}>
        {code}
      </NarrowLink>
    )
  }
  const personOf = (id: unknown): ReactNode => {
    if (typeof id !== 'string') return <Trans>no one</Trans>
    const person = refs.people[id]
    return person ? (
      <strong className="font-medium">{personName(person)}</strong>
    ) : (
      <Trans>someone no longer here</Trans>
    )
  }
  const day = (value: unknown) => (typeof value === 'string' ? formatCalendarDate(value, locale) : '?')

  const keychain = keychainOf(entry.keychainIds[0])
  const tag = tagOf(entry.tagIds[0])
  const transfer = entry.transferIds[0] ? refs.transfers[entry.transferIds[0]] : undefined
  const custody = record(payload.custodian)
  const from = personOf(custody.from ?? null)
  const to = personOf(custody.to ?? null)

  switch (entry.kind) {
    case 'keychain.created': {
      const holder = personOf(payload.custodianId)
      return payload.custodianId ? (
        <Trans>
          Created keychain {keychain}, held by {holder}
        </Trans>
      ) : (
        <Trans>Created keychain {keychain}</Trans>
      )
    }
    case 'keychain.updated': {
      const renamed = record(payload.name)
      const oldName = text(renamed.from) ?? ''
      const newName = text(renamed.to) ?? ''
      const reason = text(payload.reason) ?? ''
      const parts: ReactNode[] = []
      if (payload.custodian !== undefined) {
        parts.push(
          <span key="custody">
            <Trans>
              Custody of {keychain}: {from} → {to}
            </Trans>
            {reason ? (
              <>
                {' '}
                <Trans>(reason: {reason})</Trans>
              </>
            ) : null}
          </span>,
        )
      }
      if (payload.name !== undefined) {
        parts.push(
          <span key="name">
            <Trans>
              Renamed keychain {keychain} from “{oldName}” to “{newName}”
            </Trans>
          </span>,
        )
      }
      return parts.length > 0 ? (
        parts.flatMap((part, index) => (index > 0 ? [' · ', part] : [part]))
      ) : (
        <Trans>Changed keychain {keychain}</Trans>
      )
    }
    case 'keychain.deleted':
      return <Trans>Deleted keychain {keychain}</Trans>
    case 'keychain.restored':
      return <Trans>Restored keychain {keychain}</Trans>
    case 'key.added': {
      const key = recordedName ?? ''
      return entry.tagIds[0] ? (
        <Trans>
          Added key “{key}” with tag {tag} to {keychain}
        </Trans>
      ) : (
        <Trans>
          Added key “{key}” to {keychain}
        </Trans>
      )
    }
    case 'key.renamed': {
      const renamed = record(payload.name)
      const oldName = text(renamed.from) ?? ''
      const newName = text(renamed.to) ?? ''
      return (
        <Trans>
          Renamed key “{oldName}” to “{newName}” on {keychain}
        </Trans>
      )
    }
    case 'key.removed': {
      const key = recordedName ?? ''
      return (
        <Trans>
          Removed key “{key}” from {keychain}
        </Trans>
      )
    }
    case 'keychains.imported': {
      const count = typeof payload.keychains === 'number' ? payload.keychains : entry.keychainIds.length
      return <Plural value={count} one="Imported # keychain" other="Imported # keychains" />
    }
    case 'tags.created': {
      const count = typeof payload.count === 'number' ? payload.count : entry.tagIds.length
      return <Plural value={count} one="# tag created" other="# tags created" />
    }
    case 'tag.lost_declared':
      return <Trans>Declared tag {tag} lost</Trans>
    case 'tag.lost_undone':
      return <Trans>Tag {tag} found again</Trans>
    case 'tag.replaced':
      return <Trans>Tag {tag} reprinted on a new QR code</Trans>
    case 'scan.recorded':
      return entry.keychainIds[0] ? (
        <Trans>
          Scanned tag {tag} of {keychain}
        </Trans>
      ) : (
        <Trans>Scanned tag {tag}</Trans>
      )
    case 'transfer.authorized':
    case 'transfer.cancelled': {
      const recipient = personOf(text(payload.recipientId) ?? transfer?.recipientId)
      const fromDate = text(payload.fromDate) ?? transfer?.fromDate
      const toDate = text(payload.toDate) ?? transfer?.toDate
      const window = fromDate && toDate ? formatCalendarRange(fromDate, toDate, locale) : '?'
      return entry.kind === 'transfer.authorized' ? (
        <Trans>
          Authorized the transfer of {keychain} to {recipient}, {window}
        </Trans>
      ) : (
        <Trans>
          Cancelled the transfer of {keychain} to {recipient}, {window}
        </Trans>
      )
    }
    case 'transfer.picked_up':
      return (
        <Trans>
          Picked up {keychain}: custody {from} → {to}
        </Trans>
      )
    case 'transfer.returned':
      return (
        <Trans>
          Returned {keychain}: custody {from} → {to}
        </Trans>
      )
    case 'transfer.extension_requested':
    case 'transfer.extended':
    case 'transfer.extension_refused': {
      const until = day(payload.toDate)
      const before = day(payload.previousToDate)
      const recipient = personOf(transfer?.recipientId)
      if (entry.kind === 'transfer.extension_requested')
        return (
          <Trans>
            Asked to keep {keychain} until {until} instead of {before}
          </Trans>
        )
      return entry.kind === 'transfer.extended' ? (
        <Trans>
          Let {recipient} keep {keychain} until {until} instead of {before}
        </Trans>
      ) : (
        <Trans>
          Refused {recipient} more time with {keychain} (asked until {until})
        </Trans>
      )
    }
    case 'transfer.receipt_signed':
      return <Trans>Signed the handover receipt of {keychain}</Trans>
    case 'member.invited': {
      const member = personOf(payload.memberId)
      const role = payload.role as keyof typeof ROLE_LABELS
      const roleName = ROLE_LABELS[role] ? i18n._(ROLE_LABELS[role]) : '?'
      return (
        <Trans>
          Invited {member} as {roleName}
        </Trans>
      )
    }
    case 'member.changed': {
      const member = personOf(payload.memberId)
      const changed = Array.isArray(payload.changed) ? payload.changed : []
      const role = payload.role as keyof typeof ROLE_LABELS
      const status = payload.status as keyof typeof STATUS_LABELS
      const roleName = ROLE_LABELS[role] ? i18n._(ROLE_LABELS[role]) : '?'
      const statusName = STATUS_LABELS[status] ? i18n._(STATUS_LABELS[status]) : '?'
      const parts: ReactNode[] = []
      if (changed.includes('role'))
        parts.push(
          <span key="role">
            <Trans>role: {roleName}</Trans>
          </span>,
        )
      if (changed.includes('status'))
        parts.push(
          <span key="status">
            <Trans>status: {statusName}</Trans>
          </span>,
        )
      if (changed.some((field) => field !== 'role' && field !== 'status'))
        parts.push(
          <span key="name">
            <Trans>name changed</Trans>
          </span>,
        )
      const what = <>{parts.flatMap((part, index) => (index > 0 ? [', ', part] : [part]))}</>
      return (
        <Trans>
          Changed member {member}: {what}
        </Trans>
      )
    }
    case 'found_report.received':
      return <Trans>Found keys reported through tag {tag}</Trans>
    case 'found_report.status_changed': {
      const label = (value: unknown) => {
        const descriptor = typeof value === 'string' ? FOUND_REPORT_STATUS_LABELS[value] : undefined
        return descriptor ? i18n._(descriptor) : '?'
      }
      const before = label(payload.from)
      const after = label(payload.to)
      return (
        <Trans>
          Found-keys report on tag {tag}: {before} → {after}
        </Trans>
      )
    }
    case 'found_report.replied':
      return <Trans>Replied to the finder of tag {tag}</Trans>
    case 'keychain.handed_over': {
      const giver = personOf(custody.from)
      const receiver = personOf(custody.to)
      return (
        <Trans>
          Handed {keychain} over from phone to phone: custody {giver} → {receiver}
        </Trans>
      )
    }
    case 'handover.refused': {
      const giver = personOf(payload.giverId)
      const receiver = personOf(payload.receiverId)
      const code = text(payload.reason) ?? '?'
      const descriptor = HANDOVER_REFUSAL_LABELS[code]
      const reason = descriptor ? i18n._(descriptor) : code
      return (
        <Trans>
          Refused the handover of {keychain} from {giver} to {receiver} (reason: {reason})
        </Trans>
      )
    }
  }
}
