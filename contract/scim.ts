import * as v from 'valibot'
import { EmailSchema } from './auth.ts'

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) as an identity provider speaks it to `/scim/v2`: the organization's people as
 * `User` resources (the account's e-mail is the `userName`), created, replaced, patched (`active` above all),
 * deleted, listed with a `userName` or `externalId` filter and pages. Authenticated by an organization token of
 * kind `scim`.
 */
export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
export const SCIM_CONTENT_TYPE = 'application/scim+json'
/** The most resources one list answer holds (`count` above it is lowered to it, as RFC 7644 §3.4.2.4 allows). */
export const SCIM_PAGE_MAX = 100
const NAME_MAX = 100

/** RFC 7644 §3.12: the error types an answer names. */
export type ScimErrorType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidValue'
  | 'invalidPath'
  | 'noTarget'
  | 'uniqueness'
  | 'mutability'
  | 'tooMany'

const NamePart = v.optional(
  v.nullable(
    v.pipe(v.string(), v.trim(), v.maxLength(NAME_MAX, `A name has at most ${NAME_MAX} characters.`)),
  ),
)

/** What `POST /Users` and `PUT /Users/{id}` take; attributes we do not keep (phone numbers, titles…) are ignored. */
export const ScimUserInputSchema = v.looseObject({
  schemas: v.pipe(
    v.array(v.string()),
    v.check((schemas) => schemas.includes(SCIM_USER_SCHEMA), `schemas must include ${SCIM_USER_SCHEMA}.`),
  ),
  userName: v.pipe(
    v.string('userName is required.'),
    v.check((value) => v.is(EmailSchema, value), 'userName must be an e-mail address.'),
    v.transform((value) => v.parse(EmailSchema, value)),
  ),
  externalId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256, 'externalId is too long.')))),
  name: v.optional(v.nullable(v.looseObject({ givenName: NamePart, familyName: NamePart }))),
  active: v.optional(v.boolean('active is true or false.'), true),
})
export type ScimUserInput = v.InferOutput<typeof ScimUserInputSchema>

const PatchOperationSchema = v.looseObject({
  // Entra ID writes "Replace", "Add": RFC 7644 names them in lower case, and clients differ.
  op: v.pipe(
    v.string('op is add, replace or remove.'),
    v.toLowerCase(),
    v.picklist(['add', 'replace', 'remove']),
  ),
  path: v.optional(v.string()),
  value: v.optional(v.unknown()),
})
export type ScimPatchOperation = v.InferOutput<typeof PatchOperationSchema>

export const ScimPatchSchema = v.looseObject({
  schemas: v.pipe(
    v.array(v.string()),
    v.check((schemas) => schemas.includes(SCIM_PATCH_SCHEMA), `schemas must include ${SCIM_PATCH_SCHEMA}.`),
  ),
  Operations: v.pipe(v.array(PatchOperationSchema), v.minLength(1, 'Operations is empty.'), v.maxLength(50)),
})

const PositiveInteger = (name: string) =>
  v.pipe(v.string(), v.regex(/^\d{1,9}$/, `${name} is a whole number.`), v.transform(Number))

/** `GET /Users` query: `filter`, 1-based `startIndex`, `count` (RFC 7644 §3.4.2). */
export const ScimListQuerySchema = v.looseObject({
  filter: v.optional(v.pipe(v.string(), v.maxLength(1000, 'The filter is too long.'))),
  startIndex: v.optional(PositiveInteger('startIndex'), '1'),
  count: v.optional(PositiveInteger('count'), String(SCIM_PAGE_MAX)),
})

export type ScimUser = {
  schemas: [typeof SCIM_USER_SCHEMA]
  id: string
  externalId?: string
  userName: string
  name: { givenName: string; familyName: string; formatted: string }
  displayName: string
  emails: Array<{ value: string; type: 'work'; primary: true }>
  active: boolean
  meta: { resourceType: 'User'; created: string; location: string }
}
