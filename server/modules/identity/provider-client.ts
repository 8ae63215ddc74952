import * as client from 'openid-client'
import type { IdentityProviderRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { openSecret } from '../../shared/secret-box.ts'

type Deps = Pick<AppDeps, 'config' | 'secret'>

const DISCOVERY_TIMEOUT_S = 10
/** Per organization: the settings' version it was read for, and the discovery's answer. */
const cache = new Map<string, { version: number; configuration: Promise<client.Configuration> }>()

/**
 * The provider as openid-client knows it, from its discovery document (its issuer must be the one configured:
 * openid-client checks it). Kept per organization until its settings change (one entry each: a change replaces
 * it); a failed discovery is not kept.
 */
export function providerConfiguration(deps: Deps, row: IdentityProviderRow): Promise<client.Configuration> {
  const version = row.updatedAt.getTime()
  const cached = cache.get(row.organizationId)
  if (cached?.version === version) return cached.configuration
  const configuration = discover(deps, {
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: openSecret(deps.secret, row.clientSecret, 'identity-provider') ?? '',
  })
  const entry = { version, configuration }
  cache.set(row.organizationId, entry)
  configuration.catch(() => {
    if (cache.get(row.organizationId) === entry) cache.delete(row.organizationId)
  })
  return configuration
}

export function discover(
  deps: Pick<Deps, 'config'>,
  provider: { issuer: string; clientId: string; clientSecret: string },
): Promise<client.Configuration> {
  const insecure = deps.config.oidcAllowHttpIssuers && new URL(provider.issuer).protocol === 'http:'
  return client.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
    timeout: DISCOVERY_TIMEOUT_S,
    ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
  })
}
