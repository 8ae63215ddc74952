import * as v from 'valibot'
import { IdSchema, listOf, requiredText } from './common.ts'
import { RoleSchema } from './permissions.ts'
import { isRealInstant } from './scans.ts'

/**
 * API tokens (issue 20). `personal`: acts as its user, with their role in each organization. `organization`:
 * acts in one organization only, with the role chosen at creation, on that organization's routes (a person's
 * own routes answer it 403), and is revoked for good once its creator is no longer an ADMIN there. Neither kind
 * holds `WITHHELD_FROM_TOKENS` (members, the organization and its tokens, webhooks), nor makes a calendar feed:
 * those answer 403 to any token. Sent as `Authorization: Bearer`. `scim`: an organization's identity provider
 * provisions its people at `/scim/v2` with it (never the API); `role` is the role of the members it adds.
 */
const API_TOKEN_KINDS = ['personal', 'organization', 'scim'] as const
export type ApiTokenKind = (typeof API_TOKEN_KINDS)[number]

/** `trs_` + 12 hex characters (the prefix: found by it, shown in lists) + `_` + 43 base64url characters. */
export const API_TOKEN_PATTERN = /^trs_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/
export const API_TOKEN_NAME_MAX = 100

const NameSchema = requiredText(
  API_TOKEN_NAME_MAX,
  'Give the token a name.',
  `A token name has at most ${API_TOKEN_NAME_MAX} characters.`,
)

/** Optional: when the token stops working (an ISO 8601 instant, in the future); absent or null: never. */
const ExpiresAtSchema = v.optional(
  v.nullable(
    v.pipe(
      v.string('The expiry must be an ISO 8601 time.'),
      v.isoTimestamp('The expiry must be an ISO 8601 time.'),
      v.check(isRealInstant, 'The expiry must be an ISO 8601 time.'),
    ),
  ),
  null,
)

/** `POST /api-tokens`: a personal token of the signed-in user. */
export const PersonalApiTokenCreateSchema = v.strictObject({ name: NameSchema, expiresAt: ExpiresAtSchema })

/** `POST /organizations/{id}/api-tokens`: an organization token, by an admin of it. */
export const OrganizationApiTokenCreateSchema = v.strictObject({
  name: NameSchema,
  role: RoleSchema,
  expiresAt: ExpiresAtSchema,
  /** `organization` (the default): the API; `scim`: the identity provider's provisioning. */
  kind: v.optional(
    v.picklist(['organization', 'scim'], 'kind must be organization or scim.'),
    'organization',
  ),
})

const ApiTokenSchema = v.object({
  id: v.string(),
  name: v.string(),
  kind: v.picklist(API_TOKEN_KINDS),
  /** The token's first characters (`trs_0123456789ab`), to tell it apart; never the secret part. */
  prefix: v.string(),
  organizationId: v.nullable(v.string()),
  role: v.nullable(RoleSchema),
  /** Who made it (an organization's token list shows it). */
  createdBy: v.object({ id: v.string(), firstName: v.string(), lastName: v.string(), email: v.string() }),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
  expiresAt: v.nullable(v.string()),
})
export type ApiToken = v.InferOutput<typeof ApiTokenSchema>
export const ApiTokenListSchema = listOf(ApiTokenSchema)

/** The creation answer: the token itself, this once (the server keeps only its keyed hash). */
export const CreatedApiTokenSchema = v.object({ apiToken: ApiTokenSchema, token: v.string() })
export type CreatedApiToken = v.InferOutput<typeof CreatedApiTokenSchema>

export const OrganizationApiTokenParamsSchema = v.object({ id: IdSchema, tokenId: IdSchema })
