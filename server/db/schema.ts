import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { LOCALES } from '../../contract/locale.ts'
import { ROLES } from '../../contract/permissions.ts'

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
  },
  (table) => [check('users_email_lowercase', sql`${table.email} = lower(${table.email})`)],
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
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.organizationId] }),
    index('memberships_organization_idx').on(table.organizationId),
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

export type UserRow = typeof users.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
export type EmailTokenRow = typeof emailTokens.$inferSelect
