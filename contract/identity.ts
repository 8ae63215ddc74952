import * as v from 'valibot'
import { EmailSchema } from './auth.ts'
import { IdSchema } from './common.ts'
import { LocaleSchema } from './locale-schema.ts'
import { RoleSchema } from './permissions.ts'

/**
 * An organization's own sign-in (OpenID Connect): its identity provider (issuer, client, the role of people
 * who first sign in through it) and the e-mail domains it covers, each proven by a DNS TXT record or, where the
 * server has no DNS (`OIDC_DOMAIN_PROOF=confirm`), confirmed by an admin and flagged as such.
 */

/** `GET /auth/oidc/start?email=…&locale=…` and the coverage question the sign-in page asks as one types. */
export const OidcStartQuerySchema = v.object({
  email: EmailSchema,
  locale: v.optional(LocaleSchema, 'fr'),
})

/** `GET /auth/oidc/callback`: what the identity provider sends back (an authorization response or an error). */
export const OidcCallbackQuerySchema = v.looseObject({
  state: v.optional(v.pipe(v.string(), v.maxLength(200))),
  code: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  error: v.optional(v.pipe(v.string(), v.maxLength(200))),
})

/** Why an organization sign-in was refused: the sign-in page says it in words (`/sign-in?sso=<reason>`). */
export const OIDC_FAILURES = [
  'expired_attempt',
  'provider_error',
  'issuer',
  'audience',
  'nonce',
  'expired_token',
  'invalid_token',
  'no_email',
  'other_domain',
  'disabled',
  'unreachable',
] as const
export type OidcFailure = (typeof OIDC_FAILURES)[number]

const HttpsUrl = v.pipe(
  v.string('The issuer is required.'),
  v.trim(),
  v.url('The issuer must be a URL.'),
  v.maxLength(500, 'The issuer is too long.'),
)

/** `PUT /organizations/{id}/identity-provider`: the secret may be left out to keep the one stored. */
export const IdentityProviderInputSchema = v.strictObject({
  issuer: HttpsUrl,
  clientId: v.pipe(
    v.string('The client id is required.'),
    v.trim(),
    v.nonEmpty('The client id is required.'),
    v.maxLength(500),
  ),
  clientSecret: v.optional(
    v.pipe(
      v.string(),
      v.nonEmpty('The client secret is required.'),
      v.maxLength(2000, 'The client secret is too long.'),
    ),
  ),
  defaultRole: RoleSchema,
})
export type IdentityProviderInput = v.InferOutput<typeof IdentityProviderInputSchema>

/** A domain name as people's addresses end: lower case, at least one dot, no scheme or path. */
const DomainSchema = v.pipe(
  v.string('The domain is required.'),
  v.trim(),
  v.toLowerCase(),
  v.regex(
    /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    'Give a domain name, like example.com.',
  ),
)

export const IdentityDomainInputSchema = v.strictObject({ domain: DomainSchema })
export const IdentityDomainParamsSchema = v.object({ id: IdSchema, domain: DomainSchema })

const IdentityDomainSchema = v.object({
  domain: v.string(),
  /** `DNS`: the TXT record was found; `CONFIRMED`: an admin confirmed it on a server without DNS. */
  proof: v.nullable(v.picklist(['DNS', 'CONFIRMED'])),
  /** The record to publish: TXT `txtName` = `txtValue`. */
  txtName: v.string(),
  txtValue: v.string(),
  verifiedAt: v.nullable(v.string()),
})
export type IdentityDomain = v.InferOutput<typeof IdentityDomainSchema>

export const IdentitySettingsSchema = v.object({
  provider: v.nullable(
    v.object({
      issuer: v.string(),
      clientId: v.string(),
      defaultRole: RoleSchema,
      updatedAt: v.string(),
    }),
  ),
  /** The redirect URI to register at the provider. */
  redirectUri: v.string(),
  /** How this server proves a domain: `dns` (a TXT record) or `confirm` (an admin's word, flagged). */
  domainProof: v.picklist(['dns', 'confirm']),
  domains: v.array(IdentityDomainSchema),
})
export type IdentitySettings = v.InferOutput<typeof IdentitySettingsSchema>
