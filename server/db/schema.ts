import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { CALENDAR_FEED_SCOPES } from '../../contract/calendar.ts'
import { BILLING_CYCLES, ORDER_STATUSES, PRODUCT_TYPES } from '../../contract/commerce.ts'
import { FOUND_REPORT_STATUSES } from '../../contract/found-reports.ts'
import { HANDOVER_STATUSES } from '../../contract/handover.ts'
import { HANDOVER_REFUSALS } from '../../contract/handover-check.ts'
import { KEY_TYPES } from '../../contract/keychains.ts'
import { LOCALES } from '../../contract/locale.ts'
import { NOTICE_CHANNELS, PERSONAL_NOTICE_KINDS } from '../../contract/notices.ts'
import { type Address, HANDOVER_RECEIVERS, STOCKTAKE_ROLES } from '../../contract/organizations.ts'
import { ROLES } from '../../contract/permissions.ts'
import { PLACE_KINDS, STOCKTAKE_INTERVALS } from '../../contract/places.ts'
import { PHOTO_MAX_BYTES } from '../../contract/receipts.ts'
import {
  STOCKTAKE_ITEM_STATES,
  STOCKTAKE_SCAN_OUTCOMES,
  STOCKTAKE_STATUSES,
} from '../../contract/stocktakes.ts'
import { THEMES } from '../../contract/theme.ts'
import { STORED_TRANSFER_STATUSES } from '../../contract/transfer-state.ts'
import { EXTENSION_STATUSES, PICKUP_KINDS } from '../../contract/transfers.ts'

export const MEMBERSHIP_STATUSES = ['INVITED', 'ACTIVE', 'DISABLED'] as const

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  addressLine1: text('address_line1').notNull(),
  addressLine2: text('address_line2').notNull().default(''),
  city: text('city').notNull(),
  postalCode: text('postal_code').notNull(),
  country: text('country').notNull(),
  /** For calendar months (transfer allowances) and dates shown to the organization. */
  timeZone: text('time_zone').notNull().default('Europe/Paris'),
  /** The least role that may scan into a stocktake (MEMBER: members, managers and admins). */
  stocktakeRole: text('stocktake_role', { enum: STOCKTAKE_ROLES }).notNull().default('MEMBER'),
  /** Who may be handed a keychain from phone to phone: members, or also contacts within their transfer's window. */
  handoverReceivers: text('handover_receivers', { enum: HANDOVER_RECEIVERS }).notNull().default('MEMBERS'),
  createdAt: at('created_at').notNull(),
})

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored lowercased and trimmed. */
    email: text('email').notNull().unique(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    locale: text('locale', { enum: LOCALES }).notNull().default('fr'),
    selectedOrganizationId: uuid('selected_organization_id').references((): AnyPgColumn => organizations.id, {
      onDelete: 'set null',
    }),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    /** Last successful sign-in; null for an account created by an invitation and never used. */
    signedInAt: at('signed_in_at'),
    /** Transfer reminders by mail (escalations to an organization's admins and managers are always sent). */
    reminderMails: boolean('reminder_mails').notNull().default(true),
    /** Notices by e-mail come once a day, together, instead of one mail each (push is never held back). */
    noticeDigest: boolean('notice_digest').notNull().default(false),
    /** The colour theme of every device the account signs in on (the browser keeps a mirror for the first paint). */
    theme: text('theme', { enum: THEMES }).notNull().default('system'),
  },
  (table) => [
    check('users_email_lowercase', sql`${table.email} = lower(${table.email})`),
    check('users_theme', sql`${table.theme} IN ('system', 'light', 'dark')`),
  ],
)

export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    status: text('status', { enum: MEMBERSHIP_STATUSES }).notNull(),
    createdAt: at('created_at').notNull(),
    /** The identity provider's own id of the person (SCIM `externalId`), unique in the organization. */
    externalId: text('external_id'),
    /** Deleted by the identity provider (SCIM): DISABLED here, gone from its `/Users`, kept in the history. */
    scimRemovedAt: at('scim_removed_at'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.organizationId] }),
    index('memberships_organization_idx').on(table.organizationId),
    uniqueIndex('memberships_external_id_idx').on(table.organizationId, table.externalId),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    /** HMAC-SHA256 of the cookie value: the database never holds a usable session id. */
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    userAgent: text('user_agent'),
  },
  (table) => [index('sessions_user_idx').on(table.userId), index('sessions_expires_idx').on(table.expiresAt)],
)

export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** Locale asked for with the token; a new account takes it. */
    locale: text('locale', { enum: LOCALES }).notNull(),
    linkTokenHash: text('link_token_hash').notNull().unique(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
    voidedAt: at('voided_at'),
  },
  (table) => [index('email_tokens_email_idx').on(table.email)],
)

export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: at('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
)

export const tags = pgTable(
  'tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 20 base32 characters (100 random bits): the QR code's `<PUBLIC_URL>/tags/<publicId>`. */
    publicId: text('public_id').notNull().unique(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    alphaCode: text('alpha_code').notNull(),
    number: integer('number').notNull(),
    /** `AGC-00042`: alpha code and running number, upper case, unique in the organization. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    foregroundColor: text('foreground_color').notNull(),
    backgroundColor: text('background_color').notNull(),
    /** The paid order that produced it (null for tags made otherwise, e.g. the demo seed). */
    orderId: uuid('order_id').references((): AnyPgColumn => orders.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
    /** Declared lost: scans answer `lost` (no keychain) until undone or replaced. */
    lostAt: at('lost_at'),
    lostById: uuid('lost_by_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** When the admins were last told that this lost tag was scanned (at most one mail an hour). */
    lostNoticeAt: at('lost_notice_at'),
  },
  (table) => [
    unique('tags_organization_code_unique').on(table.organizationId, table.code),
    check('tags_code_upper', sql`${table.code} = upper(${table.code})`),
    index('tags_order_idx').on(table.orderId),
    index('tags_organization_alpha_number_idx').on(table.organizationId, table.alphaCode, table.number),
    // Search by part of the code or name (`like '%…%'`) at any size: trigram indexes (pg_trgm).
    index('tags_code_trgm_idx').using('gin', sql`lower(${table.code}) gin_trgm_ops`),
    index('tags_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
  ],
)

/**
 * Public ids a tag had before a replacement was printed with a new one (same code): the old QR, lost, answers
 * `lost` and never resolves to the keychain again.
 */
export const tagRetiredPublicIds = pgTable('tag_retired_public_ids', {
  publicId: text('public_id').primaryKey(),
  tagId: uuid('tag_id')
    .notNull()
    .references(() => tags.id, { onDelete: 'cascade' }),
  retiredAt: at('retired_at').notNull(),
})

export const keychains = pgTable(
  'keychains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    custodianId: uuid('custodian_id').references(() => users.id, { onDelete: 'set null' }),
    /** Its keys, and the codes of their tags (in no order): kept by triggers on `keys` (migration 0014). */
    keyCount: integer('key_count').notNull().default(0),
    tagCodes: text('tag_codes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    /** Natural order key of the name, set by a trigger on every write (migration 0022); its collation is "C". */
    sortName: text('sort_name').notNull().default(''),
    /** '1' and the holder's natural key, or '2' for nobody; set by triggers (migration 0022). */
    holderSort: text('holder_sort').notNull().default('2'),
    /** The transfer that concerns it now (out, else the SCHEDULED one ending last); kept by a trigger on transfers. */
    transferStatus: text('transfer_status', { enum: ['SCHEDULED', 'TRANSFERRED'] }),
    transferStartsAt: at('transfer_starts_at'),
    transferEndsAt: at('transfer_ends_at'),
    /** Soft deletion: lists, search, scans and the mirror leave it out until it is restored. */
    deletedAt: at('deleted_at'),
    deletedById: uuid('deleted_by_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** Where it lives when nobody holds it. */
    homeHookId: uuid('home_hook_id').references((): AnyPgColumn => hooks.id, { onDelete: 'set null' }),
    /** The hook it was last put on or seen on (a return, a stocktake); cleared when someone takes it. */
    hookId: uuid('hook_id').references((): AnyPgColumn => hooks.id, { onDelete: 'set null' }),
    hookSeenAt: at('hook_seen_at'),
    hookSeenById: uuid('hook_seen_by_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('keychains_home_hook_idx').on(table.homeHookId).where(sql`${table.homeHookId} is not null`),
    // The list's keyset order: WHERE organization_id = ? AND (lower(name), id) > (?, ?) ORDER BY lower(name), id
    index('keychains_organization_name_idx').on(table.organizationId, sql`lower(${table.name})`, table.id),
    index('keychains_organization_custodian_idx').on(table.organizationId, table.custodianId),
    // A holder renamed re-keys their keychains in every organization (migration 0022's trigger).
    index('keychains_custodian_idx').on(table.custodianId).where(sql`${table.custodianId} is not null`),
    // Search by part of the name (`like '%…%'`) at any size: a trigram index (pg_trgm).
    index('keychains_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
  ],
)

export const keys = pgTable(
  'keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: a keychain lists its keys in the order they were added. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    keychainId: uuid('keychain_id')
      .notNull()
      .references(() => keychains.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: KEY_TYPES }).notNull(),
    /** A TAG key's tag; unique, so a tag is on one key at most. Deleting the key frees the tag. */
    tagId: uuid('tag_id')
      .unique()
      .references(() => tags.id, { onDelete: 'no action' }),
    /** While its keychain is deleted: the tag it had (free meanwhile), put back by a restore. */
    parkedTagId: uuid('parked_tag_id').references((): AnyPgColumn => tags.id),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    index('keys_keychain_idx').on(table.keychainId, table.seq),
    check(
      'keys_tag_iff_type_tag',
      sql`(${table.type} = 'TAG') = (${table.tagId} is not null or ${table.parkedTagId} is not null)`,
    ),
    check('keys_tag_or_parked', sql`${table.tagId} is null or ${table.parkedTagId} is null`),
  ],
)

/** Append-only: one row per custodian change (who, from, to, when, why). */
export const custodyLog = pgTable(
  'custody_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order, to sort entries written within one clock tick. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    keychainId: uuid('keychain_id')
      .notNull()
      .references(() => keychains.id, { onDelete: 'cascade' }),
    byUserId: uuid('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    fromUserId: uuid('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    toUserId: uuid('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    at: at('at').notNull(),
    reason: text('reason').notNull().default(''),
  },
  (table) => [index('custody_log_keychain_idx').on(table.keychainId, table.seq)],
)

export const SCAN_RESULTS = ['resolved', 'lost', 'foreign', 'unknown'] as const

export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The caller's selected organization when scanning. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    value: text('value').notNull(),
    result: text('result', { enum: SCAN_RESULTS }).notNull(),
    tagId: uuid('tag_id').references(() => tags.id, { onDelete: 'set null' }),
    /** When the device says it scanned (X-Client-Time), e.g. hours before an offline queue replays it. */
    clientTime: at('client_time'),
    serverTime: at('server_time').notNull(),
    fromQueue: boolean('from_queue').notNull().default(false),
    /**
     * A resolved scan waiting to join its tag's organization's ledger (`append_pending_scans`, migration
     * 0019, clears it in the transaction that appends the entry); null once appended, or for a scan that is
     * no entry.
     */
    ledgerOrganizationId: uuid('ledger_organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    /** The keychain the tag was on when scanned, for the pending entry. */
    ledgerKeychainId: uuid('ledger_keychain_id'),
  },
  (table) => [
    index('scans_organization_time_idx').on(table.organizationId, table.serverTime),
    // A tag's last scan (the "not seen for N days" report), its scans by month.
    index('scans_tag_time_idx').on(table.tagId, table.serverTime),
    index('scans_ledger_pending_idx')
      .on(table.ledgerOrganizationId, table.serverTime, table.id)
      .where(sql`${table.ledgerOrganizationId} is not null`),
  ],
)

/**
 * The stored answer of a request made with an `Idempotency-Key`: a replay gets it back instead of a second
 * effect. Keys are per user; the request hash tells a replay from a reuse of the key for another request.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: uuid('key').notNull(),
    /** `POST /api/scans` */
    request: text('request').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    responseBody: jsonb('response_body'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
  ],
)

export const RECURRING_INTERVALS = ['month', 'year'] as const

/** Subscription plans are data (seeded by a migration with stable ids); inactive ones are not offered. */
export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  amountInCents: integer('amount_in_cents').notNull(),
  recurringInterval: text('recurring_interval', { enum: RECURRING_INTERVALS }).notNull(),
  recurringIntervalCount: integer('recurring_interval_count').notNull(),
  transfersPerMonth: integer('transfers_per_month').notNull(),
  sortOrder: integer('sort_order').notNull(),
  active: boolean('active').notNull().default(true),
})

/** A (user, organization) cart; amounts are not stored: they are computed from the prices at each read. */
export const cartItems = pgTable(
  'cart_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    productType: text('product_type', { enum: PRODUCT_TYPES }).notNull(),
    productRefId: text('product_ref_id').notNull(),
    quantity: integer('quantity').notNull(),
    configuration: jsonb('configuration').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    index('cart_items_owner_idx').on(table.userId, table.organizationId, table.seq),
    // One plan per cart: choosing another replaces it.
    uniqueIndex('cart_items_one_plan_idx')
      .on(table.userId, table.organizationId)
      .where(sql`${table.productType} = 'PLAN'`),
  ],
)

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Running number behind the human reference `TR-<year>-<number>`. */
    number: bigint('number', { mode: 'number' }).generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    /** Tags ordered (sum of the TAG lines). */
    quantity: integer('quantity').notNull(),
    subtotalInCents: integer('subtotal_in_cents').notNull(),
    discountInCents: integer('discount_in_cents').notNull(),
    shippingInCents: integer('shipping_in_cents').notNull(),
    freeShipping: boolean('free_shipping').notNull(),
    taxInCents: integer('tax_in_cents').notNull(),
    totalInCents: integer('total_in_cents').notNull(),
    shippingAddress: jsonb('shipping_address').$type<Address>(),
    /** The provider and session of the latest payment attempt. */
    paymentProvider: text('payment_provider', { enum: ['local', 'stripe'] }),
    paymentSessionId: text('payment_session_id'),
    paymentSessionUrl: text('payment_session_url'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    paidAt: at('paid_at'),
  },
  (table) => [
    index('orders_organization_created_idx').on(table.organizationId, table.createdAt, table.id),
    index('orders_created_idx').on(table.createdAt, table.id),
  ],
)

export const orderLines = pgTable(
  'order_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productType: text('product_type', { enum: PRODUCT_TYPES }).notNull(),
    productRefId: text('product_ref_id').notNull(),
    quantity: integer('quantity').notNull(),
    unitAmountInCents: integer('unit_amount_in_cents').notNull(),
    /** The price without tier discount, for the discount line. */
    baseUnitAmountInCents: integer('base_unit_amount_in_cents').notNull(),
    configuration: jsonb('configuration').notNull(),
  },
  (table) => [index('order_lines_order_idx').on(table.orderId, table.position)],
)

/** The organization's current subscription (one row, replaced when another plan is paid). */
export const subscriptions = pgTable('subscriptions', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  planId: uuid('plan_id')
    .notNull()
    .references(() => plans.id),
  orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
  planName: text('plan_name').notNull(),
  billingCycle: text('billing_cycle', { enum: BILLING_CYCLES }).notNull(),
  transfersPerMonth: integer('transfers_per_month').notNull(),
  currentPeriodStart: at('current_period_start').notNull(),
  currentPeriodEnd: at('current_period_end').notNull(),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
})

export const PROVIDER_SESSION_STATUSES = ['open', 'paid', 'unpaid', 'expired'] as const

/** Sessions of the local sandbox provider; the id (128 random bits) is the capability to pay. */
export const localPaymentSessions = pgTable(
  'local_payment_sessions',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status', { enum: PROVIDER_SESSION_STATUSES }).notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    completedAt: at('completed_at'),
  },
  (table) => [index('local_payment_sessions_order_idx').on(table.orderId)],
)

/** Webhook events already processed, so a repeat of one has no second effect. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: at('received_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
)

/** Stored transfer statuses; RETURNING (TRANSFERRED from `ends_at` on) and `expired` are computed. */

/**
 * A keychain lent to a recipient for a window of calendar days (organization time zone). Transfers are
 * history: they outlive their keychain (no foreign key on `keychain_id`; the name is kept), so deleting a
 * keychain never gives a month's allowance back.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    keychainId: uuid('keychain_id').notNull(),
    /** The keychain's name when authorized, shown once the keychain is deleted. */
    keychainName: text('keychain_name').notNull(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorizedById: uuid('authorized_by_id').references(() => users.id, { onDelete: 'set null' }),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    /** Start of `from_date` and of `to_date` in the organization's time zone. */
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    status: text('status', { enum: STORED_TRANSFER_STATUSES }).notNull(),
    /** Who held the keychain before the pickup: custody goes back to them at the return. */
    previousCustodianId: uuid('previous_custodian_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
    pickedUpAt: at('picked_up_at'),
    returnedAt: at('returned_at'),
    cancelledAt: at('cancelled_at'),
    /** The last "chase" (a reminder sent now by a manager): at most one an hour. */
    chasedAt: at('chased_at'),
  },
  (table) => [
    // Lists, newest window first: (starts_at, id) descending within the organization, keychain or recipient.
    index('transfers_organization_window_idx').on(table.organizationId, table.startsAt, table.id),
    index('transfers_keychain_window_idx').on(table.keychainId, table.startsAt, table.id),
    index('transfers_recipient_window_idx').on(table.recipientId, table.startsAt, table.id),
    // This month's allowance.
    index('transfers_organization_created_idx').on(table.organizationId, table.createdAt),
    // The overdue report: the keychains out, by due date.
    index('transfers_out_due_idx')
      .on(table.organizationId, table.endsAt, table.id)
      .where(sql`${table.status} = 'TRANSFERRED'`),
    check('transfers_window_order', sql`${table.endsAt} > ${table.startsAt}`),
  ],
)

/** One row per pickup (the recipient's PICKUP, then a member's RETURN): at most one of each per transfer. */
export const transferPickups = pgTable(
  'transfer_pickups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PICKUP_KINDS }).notNull(),
    byUserId: uuid('by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** When the device says it happened (X-Client-Time), e.g. hours before an offline queue replays it. */
    clientTime: at('client_time'),
    serverTime: at('server_time').notNull(),
    fromQueue: boolean('from_queue').notNull().default(false),
  },
  (table) => [unique('transfer_pickups_transfer_kind_unique').on(table.transferId, table.kind)],
)

/**
 * A holder's request for a later to-date of their transfer, then a manager's answer. At most one PENDING per
 * transfer; an approval moves the transfer's `to_date` and `ends_at` (the allowance is not charged again).
 */
export const transferExtensions = pgTable(
  'transfer_extensions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    requestedById: uuid('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The transfer's to-date when asked, and the one asked for. */
    previousToDate: date('previous_to_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    status: text('status', { enum: EXTENSION_STATUSES }).notNull(),
    /** When the device says it was asked (X-Client-Time), for a request replayed from the offline queue. */
    clientTime: at('client_time'),
    fromQueue: boolean('from_queue').notNull().default(false),
    requestedAt: at('requested_at').notNull(),
    decidedById: uuid('decided_by_id').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: at('decided_at'),
  },
  (table) => [
    index('transfer_extensions_transfer_idx').on(table.transferId, table.requestedAt),
    uniqueIndex('transfer_extensions_one_pending')
      .on(table.transferId)
      .where(sql`${table.status} = 'PENDING'`),
  ],
)

/**
 * A subscribable calendar (ICS) of transfer windows, read by calendar apps through an unguessable token kept
 * only as its keyed hash: an organization's (all its transfers) or a person's (those addressed to them).
 * Revoked, its address answers 404.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: CALENDAR_FEED_SCOPES }).notNull(),
    /** The organization of an `organization` feed; null for a personal one. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (table) => [
    index('calendar_feeds_user_idx').on(table.userId),
    check(
      'calendar_feeds_scope_organization',
      sql`(${table.scope} = 'organization') = (${table.organizationId} is not null)`,
    ),
  ],
)

/**
 * A finder's message about a tag (issue 18): kept with a status the organization's admins and managers move.
 * The finder's contact stays on the server: staff see it with any e-mail address masked, and reply through the
 * server (`found_report_replies`), which mails the address in the finder's language.
 */
export const foundReports = pgTable(
  'found_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    /** The keychain the tag was on when the finder wrote (null: on none, or deleted since). */
    keychainId: uuid('keychain_id').references(() => keychains.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    /** What the finder typed to be reached (phone, address…): private, never sent to staff as is. */
    finderContact: text('finder_contact').notNull(),
    /** The e-mail address found in the contact, lower case: where replies go (null: none, no reply). */
    finderEmail: text('finder_email'),
    /** The language of the page the finder wrote from: replies are mailed in it. */
    locale: text('locale', { enum: LOCALES }).notNull(),
    status: text('status', { enum: FOUND_REPORT_STATUSES }).notNull().default('NEW'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    statusChangedAt: at('status_changed_at'),
    statusChangedBy: uuid('status_changed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    // The admin list's keyset order, with or without its status filter: newest first.
    index('found_reports_organization_created_idx').on(table.organizationId, table.createdAt, table.id),
    index('found_reports_organization_status_created_idx').on(
      table.organizationId,
      table.status,
      table.createdAt,
      table.id,
    ),
    index('found_reports_tag_idx').on(table.tagId),
  ],
)

/** The organization's replies to a finder, mailed to them through the server; one report has a few at most. */
export const foundReportReplies = pgTable(
  'found_report_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => foundReports.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('found_report_replies_report_idx').on(table.reportId, table.createdAt)],
)

export type UserRow = typeof users.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
export type EmailTokenRow = typeof emailTokens.$inferSelect
export type OrganizationRow = typeof organizations.$inferSelect
export type MembershipRow = typeof memberships.$inferSelect
export type TagRow = typeof tags.$inferSelect
export type KeychainRow = typeof keychains.$inferSelect
export type KeyRow = typeof keys.$inferSelect
export type PlanRow = typeof plans.$inferSelect
export type CartItemRow = typeof cartItems.$inferSelect
export type OrderRow = typeof orders.$inferSelect
export type OrderLineRow = typeof orderLines.$inferSelect
export type SubscriptionRow = typeof subscriptions.$inferSelect
export type TransferRow = typeof transfers.$inferSelect
export type TransferPickupRow = typeof transferPickups.$inferSelect

/** The last event number of each organization: taken (row-locked) by the transaction that appends an event. */
export const organizationEventCounters = pgTable('organization_event_counters', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
})

/**
 * The organization's event log: one row per write that changed what it holds, numbered 1, 2, 3… per
 * organization in commit order (the counter's row lock makes a later number wait for the earlier one's commit),
 * so a reader resuming after N never skips a row that commits late. The field mirror's change feed reads the
 * ids each event touched; the activity log and the jobs that follow read the same rows.
 */
export const organizationEvents = pgTable(
  'organization_events',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** `keychain.renamed`, `transfer.cancelled`… (see `EVENT_KINDS`). */
    kind: text('kind').notNull(),
    /**
     * Part of the chain hash: a user who did something in a ledger cannot be deleted (migration 0028; users are
     * disabled, not deleted), as nulling it would break the chain.
     */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'restrict' }),
    /** When the device says it happened (X-Client-Time), for actions replayed from an offline queue. */
    clientTime: at('client_time'),
    serverTime: at('server_time').notNull(),
    fromQueue: boolean('from_queue').notNull().default(false),
    keychainIds: uuid('keychain_ids').array().notNull().default(sql`'{}'`),
    tagIds: uuid('tag_ids').array().notNull().default(sql`'{}'`),
    transferIds: uuid('transfer_ids').array().notNull().default(sql`'{}'`),
    payload: jsonb('payload').notNull().default({}),
    /**
     * SHA-256 (hex) of the previous event's hash and this event's fields (`organization_event_digest`, migration
     * 0012): editing or deleting a row breaks the chain from there on.
     */
    hash: text('hash').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.seq] }),
    // The activity log's filters at any size: a keychain's or tag's entries (ids are unique across
    // organizations), a person's (newest first), days (and the monthly report).
    index('organization_events_keychains_idx').using('gin', table.keychainIds),
    index('organization_events_tags_idx').using('gin', table.tagIds),
    index('organization_events_actor_idx').on(table.organizationId, table.actorId, table.seq),
    index('organization_events_time_idx').on(table.organizationId, table.serverTime),
  ],
)

export type OrganizationEventRow = typeof organizationEvents.$inferSelect

/**
 * Figures the dashboard and the change feed's progress show, kept by triggers as rows come and go (counting
 * 100,000 rows per call does not scale).
 */
export const organizationCounters = pgTable('organization_counters', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  keychains: bigint('keychains', { mode: 'number' }).notNull().default(0),
  tags: bigint('tags', { mode: 'number' }).notNull().default(0),
})

/**
 * The durable job queue: mails and timed work (reminders), written in the transaction that causes them and
 * run once by whichever server process claims them first (`server/jobs/`). Times are the app clock's.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `mail`, `transfer.reminder`… (see `server/jobs/kinds.ts`). */
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** The organization the job belongs to: its jobs go with it. Null for a platform job. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    /** A job enqueued twice with one key is one job (a retried fan-out, a reminder scheduled again). */
    dedupeKey: text('dedupe_key').unique(),
    runAt: at('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(12),
    /** The claiming process and the end of its lease: past it, another process may take the job again. */
    lockedBy: text('locked_by'),
    lockedUntil: at('locked_until'),
    /** The last failure's message, for operators (never logged with user data). */
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    doneAt: at('done_at'),
    failedAt: at('failed_at'),
  },
  (table) => [
    index('jobs_due_idx')
      .on(table.runAt, table.id)
      .where(sql`${table.doneAt} is null and ${table.failedAt} is null`),
  ],
)

export type JobRow = typeof jobs.$inferSelect
export type CalendarFeedRow = typeof calendarFeeds.$inferSelect
export type FoundReportRow = typeof foundReports.$inferSelect
export type FoundReportReplyRow = typeof foundReportReplies.$inferSelect

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/** What a handover receipt states, as it was at the pickup (later renames do not change a receipt). */
export type ReceiptDetails = {
  organization: { id: string; name: string }
  keychain: { id: string; name: string }
  keys: { name: string; type: string }[]
  fromDate: string
  toDate: string
  recipient: { id: string | null; name: string; email: string }
  handedOverBy: { id: string | null; name: string; email: string } | null
}

/**
 * The recipient's acceptance at a first pickup (issue 18): one per transfer, written with the pickup row in the
 * pickup's idempotent transaction. A typed name or a drawn signature (SVG path data), and an optional JPEG of
 * the keys the device resized (at most `PHOTO_MAX_BYTES`, also enforced here).
 */
export const transferReceipts = pgTable(
  'transfer_receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    transferId: uuid('transfer_id')
      .notNull()
      .unique()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    pickupId: uuid('pickup_id')
      .notNull()
      .references(() => transferPickups.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id').references(() => users.id, { onDelete: 'set null' }),
    handedOverById: uuid('handed_over_by_id').references(() => users.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<ReceiptDetails>().notNull(),
    typedName: text('typed_name'),
    signature: text('signature'),
    photo: bytea('photo'),
    /** The recipient's language when they accepted: the PDF's and their mail's. */
    locale: text('locale', { enum: LOCALES }).notNull(),
    acceptedAt: at('accepted_at').notNull(),
    clientTime: at('client_time'),
    serverTime: at('server_time').notNull(),
    fromQueue: boolean('from_queue').notNull().default(false),
  },
  (table) => [
    check(
      'transfer_receipts_accepted',
      sql`${table.typedName} is not null or ${table.signature} is not null`,
    ),
    check(
      'transfer_receipts_photo_size',
      sql`octet_length(${table.photo}) <= ${sql.raw(String(PHOTO_MAX_BYTES))}`,
    ),
  ],
)

export type TransferReceiptRow = typeof transferReceipts.$inferSelect

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const

/**
 * An organization's outgoing webhook (issue 20): where its events are posted, which kinds, and the signing
 * secret, kept encrypted with a key derived from the server secret (it must be read back to sign; see
 * `server/shared/secret-box.ts`), shown to the admin once.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    secretBox: text('secret_box').notNull(),
    /** The secret's last characters, so an admin can tell which one a receiver holds. */
    secretHint: text('secret_hint').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [index('webhook_endpoints_organization_idx').on(table.organizationId)],
)

/**
 * One event for one endpoint, written in the transaction of the change it tells about (with its job): the body
 * as sent (the same bytes on every attempt), and where its delivery stands.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The event's id in the body, one per event whatever the number of endpoints: receivers dedupe on it. */
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    nextAttemptAt: at('next_attempt_at'),
    createdAt: at('created_at').notNull(),
    deliveredAt: at('delivered_at'),
  },
  (table) => [
    unique('webhook_deliveries_endpoint_event_unique').on(table.endpointId, table.eventId),
    index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.createdAt),
    index('webhook_deliveries_settled_idx').on(table.createdAt).where(sql`${table.status} <> 'pending'`),
    check('webhook_deliveries_status', sql`${table.status} in ('pending', 'succeeded', 'failed')`),
  ],
)

/** Each try of a delivery: the endpoint's delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: at('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    nextAttemptAt: at('next_attempt_at'),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.attempt)],
)

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect

export const API_TOKEN_KINDS = ['personal', 'organization', 'scim'] as const

/**
 * An API token (issue 20): `personal` acts as its user, `organization` within one organization with the role
 * chosen at creation, while its creator is still an admin there. The token is shown once; the table keeps its
 * prefix (to find it and to show which one it is) and the keyed hash of the whole token.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    prefix: text('prefix').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: API_TOKEN_KINDS }).notNull(),
    /** The personal token's owner; the organization token's creator (its actions are recorded as theirs). */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
  },
  (table) => [
    index('api_tokens_user_idx').on(table.userId),
    index('api_tokens_organization_idx').on(table.organizationId),
    check('api_tokens_kind', sql`${table.kind} in ('personal', 'organization', 'scim')`),
    check(
      'api_tokens_kind_scope',
      sql`(${table.kind} <> 'personal') = (${table.organizationId} is not null and ${table.role} is not null)`,
    ),
  ],
)

export type ApiTokenRow = typeof apiTokens.$inferSelect

/** An organization's own sign-in (OpenID Connect): one identity provider per organization. */
export const identityProviders = pgTable(
  'identity_providers',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    /** AES-256-GCM under a key derived from the server secret (`sealSecret`): never stored in clear. */
    clientSecret: text('client_secret').notNull(),
    /** The role of a person who first signs in through it. */
    defaultRole: text('default_role', { enum: ROLES }).notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    check('identity_providers_role', sql`${table.defaultRole} IN ('ADMIN', 'MANAGER', 'MEMBER', 'CONTACT')`),
  ],
)

export type IdentityProviderRow = typeof identityProviders.$inferSelect

/** The e-mail domains an organization's sign-in covers; a domain belongs to one organization at most. */
export const identityDomains = pgTable(
  'identity_domains',
  {
    domain: text('domain').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** What the organization publishes in DNS to prove it (TXT `_trousseau.<domain>`). */
    txtValue: text('txt_value').notNull(),
    /** `DNS`: the record was found; `CONFIRMED`: an admin confirmed it on a server without DNS. Null: pending. */
    proof: text('proof', { enum: ['DNS', 'CONFIRMED'] }),
    verifiedAt: at('verified_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    index('identity_domains_organization_idx').on(table.organizationId),
    check('identity_domains_proof', sql`(${table.proof} IS NULL) = (${table.verifiedAt} IS NULL)`),
  ],
)

/** A person's account as an organization's identity provider knows them (its `sub`): found by it, not by e-mail. */
export const userIdentities = pgTable(
  'user_identities',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.subject] }),
    index('user_identities_user_idx').on(table.userId),
  ],
)

/** A sign-in on its way to the identity provider: found again by its state (hashed) when the browser returns. */
export const oidcAttempts = pgTable('oidc_attempts', {
  stateHash: text('state_hash').primaryKey(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  email: text('email').notNull(),
  locale: text('locale', { enum: LOCALES }).notNull(),
  expiresAt: at('expires_at').notNull(),
})

/**
 * Where keychains live: a tree per organization (site → room → board or cabinet, `PLACE_DEPTH_MAX` levels).
 * Boards and cabinets carry hooks and a QR label (`public_id`); a recurring stocktake may be due on any place.
 */
export const places = pgTable(
  'places',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => places.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: PLACE_KINDS }).notNull(),
    name: text('name').notNull(),
    /** 0 for a top-level place; kept by the service when a place moves (with its subtree). */
    depth: integer('depth').notNull().default(0),
    publicId: text('public_id').unique(),
    stocktakeEvery: text('stocktake_every', { enum: STOCKTAKE_INTERVALS }),
    stocktakeDueOn: date('stocktake_due_on', { mode: 'string' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    index('places_organization_parent_idx').on(table.organizationId, table.parentId),
    index('places_stocktake_due_idx')
      .on(table.stocktakeDueOn)
      .where(sql`${table.stocktakeDueOn} is not null`),
  ],
)

/** A numbered hook of a board or cabinet, with its own QR label. */
export const hooks = pgTable(
  'hooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    placeId: uuid('place_id')
      .notNull()
      .references(() => places.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** Its order on the board: the number of its range, or after the last for a single hook. */
    position: integer('position').notNull(),
    publicId: text('public_id').notNull().unique(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    unique('hooks_place_code_unique').on(table.placeId, table.code),
    index('hooks_place_position_idx').on(table.placeId, table.position),
  ],
)

/** A stocktake of a scope (a place and everything under it, or the whole organization when `place_id` is null). */
export const stocktakes = pgTable(
  'stocktakes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    placeId: uuid('place_id').references(() => places.id, { onDelete: 'restrict' }),
    status: text('status', { enum: STOCKTAKE_STATUSES }).notNull().default('OPEN'),
    startedById: uuid('started_by_id').references(() => users.id, { onDelete: 'set null' }),
    startedAt: at('started_at').notNull(),
    closedById: uuid('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closedAt: at('closed_at'),
    /** Received scans, numbered: a screen asks for what came after the number it has. */
    scanCount: integer('scan_count').notNull().default(0),
  },
  (table) => [
    index('stocktakes_organization_started_idx').on(table.organizationId, table.startedAt, table.id),
    // One open stocktake per scope at a time (the whole organization's scope is the null place).
    uniqueIndex('stocktakes_open_scope_unique')
      .on(table.organizationId, sql`coalesce(${table.placeId}::text, '')`)
      .where(sql`${table.status} = 'OPEN'`),
  ],
)

/** What a stocktake expects (taken when it starts) and what became of each. */
export const stocktakeItems = pgTable(
  'stocktake_items',
  {
    stocktakeId: uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    keychainId: uuid('keychain_id')
      .notNull()
      .references(() => keychains.id, { onDelete: 'cascade' }),
    expectedHookId: uuid('expected_hook_id').references(() => hooks.id, { onDelete: 'set null' }),
    state: text('state', { enum: STOCKTAKE_ITEM_STATES }).notNull().default('PENDING'),
    foundHookId: uuid('found_hook_id').references(() => hooks.id, { onDelete: 'set null' }),
    foundAt: at('found_at'),
    foundById: uuid('found_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [primaryKey({ columns: [table.stocktakeId, table.keychainId] })],
)

/** Every scan received for a stocktake, once (its id is the device's Idempotency-Key). */
export const stocktakeScans = pgTable(
  'stocktake_scans',
  {
    id: uuid('id').primaryKey(),
    stocktakeId: uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    /** Its number among the stocktake's received scans, from 1. */
    seq: integer('seq').notNull(),
    value: text('value').notNull(),
    /** The hook label it was, or the hook the device had scanned last (where the tag hangs). */
    hookId: uuid('hook_id').references(() => hooks.id, { onDelete: 'set null' }),
    keychainId: uuid('keychain_id').references(() => keychains.id, { onDelete: 'set null' }),
    outcome: text('outcome', { enum: STOCKTAKE_SCAN_OUTCOMES }).notNull(),
    /** The whole answer the device got, for a replay of the same key. */
    answer: jsonb('answer').notNull(),
    scannedById: uuid('scanned_by_id').references(() => users.id, { onDelete: 'set null' }),
    deviceId: text('device_id').notNull(),
    deviceSeq: integer('device_seq').notNull(),
    clientTime: at('client_time'),
    receivedAt: at('received_at').notNull(),
    /** Arrived after the close: kept and reported, counted nowhere. */
    late: boolean('late').notNull().default(false),
  },
  (table) => [
    uniqueIndex('stocktake_scans_seq_unique').on(table.stocktakeId, table.seq),
    unique('stocktake_scans_device_seq_unique').on(table.stocktakeId, table.deviceId, table.deviceSeq),
  ],
)

/** Each device that scanned for a stocktake: how many scans it says it made, how many arrived. */
export const stocktakeDevices = pgTable(
  'stocktake_devices',
  {
    stocktakeId: uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    made: integer('made').notNull().default(0),
    received: integer('received').notNull().default(0),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.stocktakeId, table.deviceId] })],
)

/**
 * A device's signing key (ECDSA P-256), made on the device and registered by its user: it signs handover offers
 * and acceptances. Never deleted: a revoked or expired key still checks what it signed before.
 */
export const deviceKeys = pgTable(
  'device_keys',
  {
    /** Made by the device. */
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The raw public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** `fingerprintOf(publicKey)`: the device's short name in receive codes. */
    fingerprint: text('fingerprint').notNull(),
    registeredAt: at('registered_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (table) => [index('device_keys_user_idx').on(table.userId, table.registeredAt)],
)

export type DeviceKeyRow = typeof deviceKeys.$inferSelect

/** A device that receives push notifications (Web Push): what its browser's `PushManager.subscribe()` gave. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The push service's address for this device: a credential (whoever knows it and the keys may push). */
    endpoint: text('endpoint').notNull().unique(),
    /** The device's P-256 public key and 16-byte secret, base64url: the message is encrypted to them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    /** Last registered again (every app start): a subscription unseen for long is the first to go. */
    seenAt: at('seen_at').notNull(),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId)],
)

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

/** A notice kept for a person's daily digest mail: its subject, one line and link, in their language. */
export const noticeDigestItems = pgTable(
  'notice_digest_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The notice's kind, subject and person: kept once whatever the retries. */
    dedupeKey: text('dedupe_key').notNull().unique(),
    subject: text('subject').notNull(),
    summary: text('summary').notNull(),
    link: text('link'),
    createdAt: at('created_at').notNull(),
    sentAt: at('sent_at'),
  },
  (table) => [index('notice_digest_items_user_idx').on(table.userId, table.sentAt)],
)

/** A person's choice of channel for one kind of notice; a kind without a row has its default. */
export const noticeSettings = pgTable(
  'notice_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PERSONAL_NOTICE_KINDS }).notNull(),
    channel: text('channel', { enum: NOTICE_CHANNELS }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.kind] }),
    check('notice_settings_channel', sql`${table.channel} IN ('BOTH', 'PUSH', 'EMAIL', 'NONE')`),
  ],
)

/**
 * A keychain handed from phone to phone: the signed pair as it arrived first (its id is the offer's digest),
 * applied, or refused for a reason of the server's records. Names are kept as they were, for the receipt.
 */
export const handovers = pgTable(
  'handovers',
  {
    /** `offerIdOf(offer text)`, base64url. */
    id: text('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** No foreign key: a handover is history, it outlives its keychain (as transfers do). */
    keychainId: uuid('keychain_id').notNull(),
    keychainName: text('keychain_name').notNull(),
    status: text('status', { enum: HANDOVER_STATUSES }).notNull(),
    reason: text('reason', { enum: HANDOVER_REFUSALS }),
    giverId: uuid('giver_id').references(() => users.id, { onDelete: 'set null' }),
    giverName: text('giver_name').notNull(),
    giverDeviceId: uuid('giver_device_id').notNull(),
    receiverId: uuid('receiver_id').references(() => users.id, { onDelete: 'set null' }),
    receiverName: text('receiver_name').notNull(),
    receiverDeviceId: uuid('receiver_device_id').notNull(),
    /** The signed codes, exactly as the phones exchanged them. */
    offer: text('offer').notNull(),
    acceptance: text('acceptance').notNull(),
    /** The giver's device time, the receiver's, the server's. */
    offeredAt: at('offered_at').notNull(),
    acceptedAt: at('accepted_at').notNull(),
    receivedAt: at('received_at').notNull(),
    sentById: uuid('sent_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Applied as the pickup of this transfer (a contact handed the keychain within its window). */
    transferId: uuid('transfer_id'),
  },
  (table) => [
    index('handovers_organization_received_idx').on(table.organizationId, table.receivedAt, table.id),
    index('handovers_giver_idx').on(table.giverId, table.receivedAt),
    index('handovers_receiver_idx').on(table.receiverId, table.receivedAt),
    index('handovers_giver_device_idx').on(table.giverDeviceId),
    index('handovers_receiver_device_idx').on(table.receiverDeviceId),
    check('handovers_reason_iff_refused', sql`(${table.status} = 'REFUSED') = (${table.reason} is not null)`),
  ],
)

export type HandoverRow = typeof handovers.$inferSelect
