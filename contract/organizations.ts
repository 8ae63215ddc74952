import * as v from 'valibot'
import { EmailSchema } from './auth.ts'
import { IdSchema, listOf, optionalText, requiredText } from './common.ts'
import { LocaleSchema } from './locale-schema.ts'
import { type Role, RoleSchema } from './permissions.ts'
import { PersonSchema } from './person.ts'

export const AddressSchema = v.object({
  line1: requiredText(200, 'Address is required.', 'Address is too long.'),
  line2: optionalText(200, 'Address line 2 is too long.'),
  city: requiredText(100, 'City is required.', 'City is too long.'),
  postalCode: requiredText(20, 'Postal code is required.', 'Postal code is too long.'),
  /** ISO 3166-1 alpha-2, upper case (FR, BE, …); the UI names it in the reader's language. */
  country: v.pipe(
    v.string('Country is required.'),
    v.trim(),
    v.nonEmpty('Country is required.'),
    v.toUpperCase(),
    v.regex(/^[A-Z]{2}$/, 'Country must be a two-letter code.'),
  ),
})
export type Address = v.InferOutput<typeof AddressSchema>

export const OrganizationCreateSchema = v.strictObject({
  name: requiredText(120, 'Name is required.', 'Name is too long.'),
  address: AddressSchema,
})
export type OrganizationCreate = v.InferInput<typeof OrganizationCreateSchema>

/** An organization's calendar (days, months of the allowance) unless it says otherwise. */
export const DEFAULT_TIME_ZONE = 'Europe/Paris'

/**
 * The least role that may scan into the organization's stocktakes, and every role above it (MEMBER: members,
 * managers and admins). Never CONTACT: an outside recipient does not count the organization's keys.
 */
export const STOCKTAKE_ROLES = ['ADMIN', 'MANAGER', 'MEMBER'] as const satisfies readonly Role[]
export type StocktakeRole = (typeof STOCKTAKE_ROLES)[number]
const StocktakeRoleSchema = v.picklist(
  STOCKTAKE_ROLES,
  'Stocktake role must be ADMIN, MANAGER or MEMBER (a CONTACT never scans in stocktakes).',
)

/** Who may be handed a keychain: active members only (default), or also contacts within their transfer's window. */
export const HANDOVER_RECEIVERS = ['MEMBERS', 'MEMBERS_AND_CONTACTS'] as const
export type HandoverReceivers = (typeof HANDOVER_RECEIVERS)[number]
const HandoverReceiversSchema = v.picklist(
  HANDOVER_RECEIVERS,
  'Handover receivers must be MEMBERS or MEMBERS_AND_CONTACTS.',
)

export const OrganizationSchema = v.object({
  id: v.string(),
  name: v.string(),
  address: AddressSchema,
  timeZone: v.string(),
  stocktakeRole: StocktakeRoleSchema,
  handoverReceivers: HandoverReceiversSchema,
  /** The caller's role in it. */
  role: RoleSchema,
  createdAt: v.string(),
})
export type Organization = v.InferOutput<typeof OrganizationSchema>
export const OrganizationListSchema = listOf(OrganizationSchema)

/** `PATCH /organizations/{id}` (ADMIN): send only the settings that change. */
export const OrganizationUpdateSchema = v.strictObject({
  stocktakeRole: v.optional(StocktakeRoleSchema),
  handoverReceivers: v.optional(HandoverReceiversSchema),
})
export type OrganizationUpdate = v.InferInput<typeof OrganizationUpdateSchema>

/** `GET /organizations/default`: the selected organization, null when the user has none. */
export const DefaultOrganizationSchema = v.object({ id: v.nullable(v.string()) })
export const DefaultOrganizationUpdateSchema = v.strictObject({ id: IdSchema })

const MEMBER_STATUSES = ['INVITED', 'ACTIVE', 'DISABLED'] as const
const MemberStatusSchema = v.picklist(MEMBER_STATUSES)
export type MemberStatus = (typeof MEMBER_STATUSES)[number]

export const MemberSchema = v.object({
  ...PersonSchema.entries,
  role: RoleSchema,
  status: MemberStatusSchema,
  joinedAt: v.string(),
})
export type Member = v.InferOutput<typeof MemberSchema>
export const MemberListSchema = listOf(MemberSchema)

export const InvitationSchema = v.strictObject({
  email: EmailSchema,
  role: RoleSchema,
  firstName: optionalText(100, 'First name is too long.'),
  lastName: optionalText(100, 'Last name is too long.'),
  /** Language of the invitation mail when the address has no account yet (an account's own language wins). */
  locale: v.optional(LocaleSchema),
})
export type Invitation = v.InferInput<typeof InvitationSchema>

/**
 * `PATCH /users/{id}`: an ADMIN edits a member of the selected organization. Names and e-mail can change only
 * while the member is INVITED, has never signed in and belongs to no other organization (409, names:
 * `member_names_locked`; send only the fields that changed); role and status only by an ADMIN, and the last
 * active ADMIN can be neither demoted nor disabled. `status: 'DISABLED'` on an INVITED member revokes the
 * invitation; `ACTIVE` on a DISABLED one gives INVITED, ACTIVE again at their next sign-in.
 */
export const MemberUpdateSchema = v.strictObject({
  firstName: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'First name is too long.'))),
  lastName: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Last name is too long.'))),
  email: v.optional(EmailSchema),
  role: v.optional(RoleSchema),
  status: v.optional(v.picklist(['ACTIVE', 'DISABLED'], 'Status must be ACTIVE or DISABLED.')),
})
export type MemberUpdate = v.InferInput<typeof MemberUpdateSchema>
