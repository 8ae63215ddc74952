import { randomBytes } from 'node:crypto'
import { resolveTxt } from 'node:dns/promises'
import { and, asc, eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { IdentityProviderInput, IdentitySettings } from '../../../contract/identity.ts'
import type { Db } from '../../db/client.ts'
import { identityDomains, identityProviders } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { sealSecret } from '../../shared/secret-box.ts'
import { discover } from './provider-client.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'secret'>

/** Where the provider sends the browser back: to register at the provider as the client's redirect URI. */
export function redirectUriOf(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/auth/oidc/callback`
}

const txtNameOf = (domain: string) => `_trousseau.${domain}`

const invalid = (path: string, message: string) =>
  new ApiError(400, ErrorCode.validation, message, { issues: [{ path, message }] })

export async function identitySettings(deps: Deps, organizationId: string): Promise<IdentitySettings> {
  const { db } = deps.database
  const [provider] = await db
    .select()
    .from(identityProviders)
    .where(eq(identityProviders.organizationId, organizationId))
  const domains = await db
    .select()
    .from(identityDomains)
    .where(eq(identityDomains.organizationId, organizationId))
    .orderBy(asc(identityDomains.domain))
  return {
    provider: provider
      ? {
          issuer: provider.issuer,
          clientId: provider.clientId,
          defaultRole: provider.defaultRole,
          updatedAt: provider.updatedAt.toISOString(),
        }
      : null,
    redirectUri: redirectUriOf(deps.config.publicUrl),
    domainProof: deps.config.oidcDomainProof,
    domains: domains.map((row) => ({
      domain: row.domain,
      proof: row.proof,
      txtName: txtNameOf(row.domain),
      txtValue: row.txtValue,
      verifiedAt: row.verifiedAt?.toISOString() ?? null,
    })),
  }
}

/**
 * Sets the organization's provider. Its discovery document is fetched first: an issuer that does not answer, or
 * answers for another issuer, is refused (400) before anyone is sent there. The secret is sealed; left out, the
 * stored one stays (a first setting needs it).
 */
export async function saveIdentityProvider(
  deps: Deps,
  organizationId: string,
  input: IdentityProviderInput,
): Promise<IdentitySettings> {
  const { db } = deps.database
  const issuer = new URL(input.issuer)
  if (issuer.protocol !== 'https:' && !(deps.config.oidcAllowHttpIssuers && issuer.protocol === 'http:')) {
    throw invalid('issuer', 'The issuer must be an https:// address.')
  }
  const [current] = await db
    .select()
    .from(identityProviders)
    .where(eq(identityProviders.organizationId, organizationId))
  if (!current && input.clientSecret === undefined)
    throw invalid('clientSecret', 'The client secret is required.')
  try {
    await discover(deps, {
      issuer: input.issuer,
      clientId: input.clientId,
      // Stryker disable next-line LogicalOperator,StringLiteral: discovery reads the provider's document, the secret goes nowhere
      clientSecret: input.clientSecret ?? '',
    })
  } catch (error) {
    throw invalid(
      'issuer',
      `The issuer's discovery document (${input.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration) could not be read or names another issuer: ${(error as Error).message}`,
    )
  }
  const now = deps.clock.now()
  const values = {
    issuer: input.issuer,
    clientId: input.clientId,
    defaultRole: input.defaultRole,
    updatedAt: now,
    ...(input.clientSecret === undefined
      ? {}
      : { clientSecret: sealSecret(deps.secret, input.clientSecret, 'identity-provider') }),
  }
  if (current) {
    await db.update(identityProviders).set(values).where(eq(identityProviders.organizationId, organizationId))
  } else {
    await db.insert(identityProviders).values({
      ...values,
      organizationId,
      clientSecret: sealSecret(deps.secret, input.clientSecret!, 'identity-provider'),
      createdAt: now,
    })
  }
  return identitySettings(deps, organizationId)
}

export async function removeIdentityProvider(deps: Deps, organizationId: string): Promise<void> {
  const removed = await deps.database.db
    .delete(identityProviders)
    .where(eq(identityProviders.organizationId, organizationId))
    .returning({ id: identityProviders.organizationId })
  if (removed.length === 0) throw notFound('The organization has no identity provider.')
}

/** A domain to cover, pending until proven; one already claimed by another organization is a 409. */
export async function addIdentityDomain(
  deps: Deps,
  organizationId: string,
  domain: string,
): Promise<IdentitySettings> {
  const inserted = await deps.database.db
    .insert(identityDomains)
    .values({
      domain,
      organizationId,
      txtValue: `trousseau-verification=${randomBytes(16).toString('base64url')}`,
      createdAt: deps.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ domain: identityDomains.domain })
  // Stryker disable next-line ConditionalExpression: a domain just inserted is the organization's, which the check below lets by
  if (inserted.length === 0) {
    const [existing] = await deps.database.db
      .select({ organizationId: identityDomains.organizationId })
      .from(identityDomains)
      .where(eq(identityDomains.domain, domain))
    if (existing?.organizationId !== organizationId) {
      throw new ApiError(409, ErrorCode.conflict, 'Another organization already covers this domain.')
    }
  }
  return identitySettings(deps, organizationId)
}

async function domainOf(db: Db, organizationId: string, domain: string) {
  const [row] = await db
    .select()
    .from(identityDomains)
    .where(and(eq(identityDomains.domain, domain), eq(identityDomains.organizationId, organizationId)))
  if (!row) throw notFound('No such domain.')
  return row
}

/** Whether the domain publishes the organization's TXT record (a lookup that fails is a no). */
async function publishes(domain: string, value: string): Promise<boolean> {
  const records = await resolveTxt(txtNameOf(domain)).catch((): string[][] => [])
  return records.some((chunks) => chunks.join('') === value)
}

/**
 * Proves a domain: by its TXT record (`OIDC_DOMAIN_PROOF=dns`, 409 while the record is not found), or, on a
 * server without DNS (`confirm`), by the admin's confirmation, kept as such (`CONFIRMED`).
 */
export async function verifyIdentityDomain(
  deps: Deps,
  organizationId: string,
  domain: string,
): Promise<IdentitySettings> {
  const { db } = deps.database
  const row = await domainOf(db, organizationId, domain)
  let proof: 'DNS' | 'CONFIRMED' = 'CONFIRMED'
  if (deps.config.oidcDomainProof === 'dns') {
    if (!(await publishes(domain, row.txtValue))) {
      throw new ApiError(
        409,
        ErrorCode.conflict,
        `The TXT record ${txtNameOf(domain)} = "${row.txtValue}" was not found yet (DNS changes may take a while).`,
      )
    }
    proof = 'DNS'
  }
  await db
    .update(identityDomains)
    .set({ proof, verifiedAt: deps.clock.now() })
    .where(eq(identityDomains.domain, domain))
  return identitySettings(deps, organizationId)
}

export async function removeIdentityDomain(
  deps: Deps,
  organizationId: string,
  domain: string,
): Promise<void> {
  await domainOf(deps.database.db, organizationId, domain)
  await deps.database.db.delete(identityDomains).where(eq(identityDomains.domain, domain))
}
