import { and, desc, eq, gte, inArray, ne, sql } from 'drizzle-orm'
import ical, { ICalEventStatus } from 'ical-generator'
import type { Locale } from '../../../contract/locale.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import {
  type CalendarFeedRow,
  memberships,
  organizations,
  transferExtensions,
  transfers,
  type UserRow,
} from '../../db/schema.ts'
import { formatAddress, formatCalendarDay } from '../../i18n/format.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import { transferRequestUrl } from '../../mail/transfer-mail.ts'
import { addressOf } from '../../shared/organization.ts'
import { displayName } from '../../shared/person.ts'
import { selectTransfers, type TransferViewRow } from '../../shared/transfer-view.ts'

/** Transfers whose window ended longer ago than this stay out of the feed; and at most this many. */
const PAST_DAYS = 60
const MAX_EVENTS = 500

const m = {
  organizationName: /*i18n*/ { id: 'calendar.organization.name', message: 'Trousseau — {organization}' },
  personalName: /*i18n*/ { id: 'calendar.personal.name', message: 'Trousseau — my transfers' },
  organizationSummary: /*i18n*/ { id: 'calendar.organization.summary', message: '{keychain} — {holder}' },
  personalSummary: /*i18n*/ { id: 'calendar.personal.summary', message: '{keychain} ({organization})' },
  description: /*i18n*/ {
    id: 'calendar.description',
    message: 'Pickup from {from} to {lastDay}, due back on {to}.',
  },
  returned: /*i18n*/ { id: 'calendar.returned', message: 'Returned.' },
  out: /*i18n*/ { id: 'calendar.out', message: 'Picked up.' },
} satisfies Record<string, MessageDescriptor>

/** The feed's transfers: not cancelled, not long over, newest window first. */
async function feedTransfers(db: Db, feed: CalendarFeedRow, owner: UserRow, today: string) {
  const since = shiftCalendarDay(today, -PAST_DAYS)
  const scope =
    feed.scope === 'organization' && feed.organizationId
      ? eq(transfers.organizationId, feed.organizationId)
      : and(
          eq(transfers.recipientId, owner.id),
          // Organizations where the person is still a member (not DISABLED).
          inArray(
            transfers.organizationId,
            db
              .select({ id: memberships.organizationId })
              .from(memberships)
              .where(and(eq(memberships.userId, owner.id), ne(memberships.status, 'DISABLED'))),
          ),
        )
  return selectTransfers(db)
    .where(and(scope, ne(transfers.status, 'CANCELLED'), gte(transfers.toDate, since)))
    .orderBy(desc(transfers.startsAt), desc(transfers.id))
    .limit(MAX_EVENTS)
}

const utcDay = (day: string) => new Date(`${day}T00:00:00Z`)

/**
 * The feed as ICS: one all-day event per transfer, from its from-date through the day it is due back, in the
 * owner's language. Each event's UID is the transfer's, and its SEQUENCE counts the window's moves, so a
 * calendar app updates the event in place when an extension moves it.
 */
export async function renderFeed(
  db: Db,
  input: { feed: CalendarFeedRow; owner: UserRow; now: Date; today: string; publicUrl: string },
): Promise<string> {
  const { feed, owner } = input
  const locale: Locale = owner.locale
  const i18n = translator(locale)
  const rows = await feedTransfers(db, feed, owner, input.today)
  const organizationName = feed.organizationId
    ? // Stryker disable next-line LogicalOperator: `&&` reads the name from nameOf instead, the same organization's (every row is of the feed's organization).
      (rows[0]?.organization.name ?? (await nameOf(db, feed)))
    : null
  const calendar = ical({
    name: i18n._({
      ...(feed.scope === 'organization' ? m.organizationName : m.personalName),
      // Stryker disable next-line StringLiteral: organizationName is null only for a personal feed, whose name has no {organization}.
      values: { organization: organizationName ?? '' },
    }),
    prodId: { company: 'Trousseau', product: 'Trousseau', language: locale.toUpperCase() },
    ttl: 60 * 60,
  })
  const moves = await windowMoves(db, rows)
  for (const row of rows) calendar.createEvent(eventOf(row, { ...input, locale, moves }))
  return calendar.toString()
}

async function nameOf(db: Db, feed: CalendarFeedRow) {
  const [row] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, feed.organizationId ?? ''))
  return row?.name ?? ''
}

/** How many times each transfer's window moved (approved extensions). */
async function windowMoves(db: Db, rows: TransferViewRow[]): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map()
  const counted = await db
    .select({ transferId: transferExtensions.transferId, moves: sql<number>`count(*)::int` })
    .from(transferExtensions)
    .where(
      and(
        inArray(
          transferExtensions.transferId,
          rows.map((row) => row.transfer.id),
        ),
        eq(transferExtensions.status, 'APPROVED'),
      ),
    )
    .groupBy(transferExtensions.transferId)
  return new Map(counted.map((row) => [row.transferId, row.moves]))
}

function eventOf(
  row: TransferViewRow,
  input: { feed: CalendarFeedRow; locale: Locale; now: Date; publicUrl: string; moves: Map<string, number> },
) {
  const { transfer, organization } = row
  const { locale } = input
  const i18n = translator(locale)
  const values = {
    keychain: row.keychainName ?? transfer.keychainName,
    holder: displayName(row.recipient),
    organization: organization.name,
    from: formatCalendarDay(locale, transfer.fromDate),
    lastDay: formatCalendarDay(locale, shiftCalendarDay(transfer.toDate, -1)),
    to: formatCalendarDay(locale, transfer.toDate),
  }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  const state =
    transfer.status === 'RETURNED' ? text(m.returned) : transfer.status === 'TRANSFERRED' ? text(m.out) : null
  return {
    id: `${transfer.id}@trousseau`,
    sequence: input.moves.get(transfer.id) ?? 0,
    stamp: input.now,
    allDay: true,
    start: utcDay(transfer.fromDate),
    // DTEND is exclusive: the day after the to-date keeps the day it is due back in the event.
    end: utcDay(shiftCalendarDay(transfer.toDate, 1)),
    summary: text(input.feed.scope === 'organization' ? m.organizationSummary : m.personalSummary),
    description: [text(m.description), state].filter(Boolean).join(' '),
    location: formatAddress(locale, addressOf(organization)).replaceAll('\n', ', '),
    url:
      input.feed.scope === 'organization'
        ? `${input.publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}/app/transfers`
        : transferRequestUrl(input.publicUrl, locale, transfer.id),
    status: ICalEventStatus.CONFIRMED,
  }
}
