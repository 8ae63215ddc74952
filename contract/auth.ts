import * as v from 'valibot'
import { LocaleSchema } from './locale-schema.ts'
import { THEMES } from './theme.ts'

export const SIGN_IN_CODE_LENGTH = 6

const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/**
 * An address real mail systems deliver to: an unquoted local part of RFC 5322 characters (apostrophes, plus
 * signs, dots between characters), at a domain of at least two labels whose last is letters or punycode (an international domain travels
 * in punycode; the browsers' e-mail inputs write it so). IP
 * literals and quoted local parts are refused: no one signs in with those.
 */
export function normalizedMailAddress(value: string): string | null {
  const at = value.lastIndexOf('@')
  if (at <= 0 || at > 64) return null
  const local = value.slice(0, at)
  const domain = value.slice(at + 1)
  if (domain.length > 253 || !LOCAL_PART.test(local)) return null
  const labels = domain.split('.')
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return null
  if (!TOP_LEVEL.test(labels.at(-1)!)) return null
  const address = `${local}@${domain}`
  return address.length <= 254 ? address : null
}

/** The check itself, named so that the API document can state it (`format: email`). */
export const isMailAddress = v.check(
  (value: string) => normalizedMailAddress(value) !== null,
  'E-mail must be a valid address.',
)

export const EmailSchema = v.pipe(
  v.string('E-mail is required.'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('E-mail is required.'),
  v.maxLength(254, 'E-mail is too long.'),
  isMailAddress,
  v.transform((value) => normalizedMailAddress(value)!),
)

export const SignInCodeSchema = v.pipe(
  v.string('Code is required.'),
  v.trim(),
  v.regex(/^\d{6}$/, 'Code must be 6 digits.'),
)

export const EmailTokenRequestSchema = v.object({
  email: EmailSchema,
  locale: v.optional(LocaleSchema),
})

export const EmailTokenAcceptedSchema = v.object({ status: v.literal('sent') })

/** Either the link token from the e-mail, or the e-mail address with the 6-digit code. */
export const SessionRequestSchema = v.union([
  v.strictObject({ token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Malformed token.')) }),
  v.strictObject({ email: EmailSchema, code: SignInCodeSchema }),
])
export type SessionRequest = v.InferInput<typeof SessionRequestSchema>

export const PhoneSchema = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(32, 'Phone number is too long.'),
  v.regex(/^[+0-9 ().-]*$/, 'Phone number may hold digits, spaces and + ( ) . - only.'),
)

const NameSchema = v.pipe(v.string(), v.trim(), v.maxLength(100, 'Name is too long.'))

export const ProfileSchema = v.object({
  id: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  phoneNumber: v.string(),
  locale: LocaleSchema,
  /** Transfer reminders by mail (an organization's escalations to its admins and managers always go). */
  reminderMails: v.boolean(),
  /** The colour theme: the system's, or always light or dark. */
  theme: v.picklist(THEMES),
  isOperator: v.boolean(),
  selectedOrganizationId: v.nullable(v.string()),
  permissions: v.array(v.string()),
})
export type Profile = v.InferOutput<typeof ProfileSchema>

export const ProfileUpdateSchema = v.strictObject({
  firstName: v.optional(NameSchema),
  lastName: v.optional(NameSchema),
  phoneNumber: v.optional(PhoneSchema),
  locale: v.optional(LocaleSchema),
  reminderMails: v.optional(v.boolean('Reminder mails are on (true) or off (false).')),
  theme: v.optional(v.picklist(THEMES, 'Theme must be system, light or dark.')),
})
export type ProfileUpdate = v.InferInput<typeof ProfileUpdateSchema>

/** `GET /auth/oidc/coverage`: the organization whose own sign-in covers an address (here: the sign-in page loads it). */
export const OidcCoverageSchema = v.object({ organizationName: v.string() })
