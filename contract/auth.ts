import * as v from 'valibot'
import { LocaleSchema } from './locale-schema.ts'

export const SIGN_IN_CODE_LENGTH = 6

export const EmailSchema = v.pipe(
  v.string('E-mail is required.'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('E-mail is required.'),
  v.maxLength(254, 'E-mail is too long.'),
  v.email('E-mail must be a valid address.'),
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
export type EmailTokenRequest = v.InferInput<typeof EmailTokenRequestSchema>

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
})
export type ProfileUpdate = v.InferInput<typeof ProfileUpdateSchema>
