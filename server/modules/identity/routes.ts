import { identityEndpoints } from '../../../contract/endpoints/identity.ts'
import type { OidcFailure } from '../../../contract/identity.ts'
import type { Locale } from '../../../contract/locale.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { notFound } from '../../http/errors.ts'
import { setSessionCookie } from '../../http/session-cookie.ts'
import { coveringProvider } from '../../shared/identity-coverage.ts'
import { createSession, deleteSession } from '../auth/sessions.ts'
import {
  addIdentityDomain,
  identitySettings,
  removeIdentityDomain,
  removeIdentityProvider,
  saveIdentityProvider,
  verifyIdentityDomain,
} from './settings.ts'
import { finishOidcSignIn, OidcRefused, startOidcSignIn } from './sign-in.ts'

const adminOnly = inPathOrganization('update__organization')

/** An organization's own sign-in: its admins set the provider and domains; anyone signs in through it. */
export function identityRoutes(api: ApiRouter, deps: AppDeps): void {
  const base = (locale: Locale) =>
    `${deps.config.publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}`
  const refused = (reason: OidcFailure, locale: Locale) => `${base(locale)}/sign-in?sso=${reason}`

  api.route(
    {
      ...identityEndpoints.settings,
      summary:
        "The organization's identity provider (never its secret), the redirect URI to register, its domains",
      access: adminOnly,
      credentials: 'session',
      responses: { 200: { description: 'The settings' } },
    },
    async (c, { organization }) => c.json(await identitySettings(deps, organization.organizationId), 200),
  )

  api.route(
    {
      ...identityEndpoints.saveProvider,
      summary:
        'Set the identity provider (OpenID Connect): issuer, client id and secret (sealed; left out, the stored one stays), the role of people who first sign in through it',
      access: adminOnly,
      credentials: 'session',
      responses: {
        200: { description: 'The settings' },
        400: {
          description: '`validation_failed`: the issuer does not answer its discovery document, or no secret',
        },
      },
    },
    async (c, { organization, body }) =>
      c.json(await saveIdentityProvider(deps, organization.organizationId, body), 200),
  )

  api.route(
    {
      ...identityEndpoints.removeProvider,
      summary: "Remove the identity provider: the organization's people sign in by e-mail code again",
      access: adminOnly,
      credentials: 'session',
      responses: { 204: { description: 'Removed' } },
    },
    async (c, { organization }) => {
      await removeIdentityProvider(deps, organization.organizationId)
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...identityEndpoints.addDomain,
      summary:
        'Cover an e-mail domain (pending until proven by its DNS TXT record, or confirmed where there is no DNS)',
      access: adminOnly,
      credentials: 'session',
      responses: {
        200: { description: 'The settings, the TXT record to publish among them' },
        409: { description: '`conflict`: another organization covers the domain' },
      },
    },
    async (c, { organization, body }) =>
      c.json(await addIdentityDomain(deps, organization.organizationId, body.domain), 200),
  )

  api.route(
    {
      ...identityEndpoints.verifyDomain,
      summary:
        'Prove a domain: its TXT record is looked up (OIDC_DOMAIN_PROOF=dns), or the admin confirms it (confirm, flagged)',
      access: adminOnly,
      credentials: 'session',
      responses: {
        200: { description: 'The settings' },
        409: { description: '`conflict`: the TXT record was not found' },
      },
    },
    async (c, { organization, params }) =>
      c.json(await verifyIdentityDomain(deps, organization.organizationId, params.domain), 200),
  )

  api.route(
    {
      ...identityEndpoints.removeDomain,
      summary: 'Stop covering a domain',
      access: adminOnly,
      credentials: 'session',
      responses: { 204: { description: 'Removed' } },
    },
    async (c, { organization, params }) => {
      await removeIdentityDomain(deps, organization.organizationId, params.domain)
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...identityEndpoints.coverage,
      summary: "Whether an organization's own sign-in covers the address's domain, and which organization",
      access: 'public',
      responses: {
        200: { description: 'Covered: the organization' },
        404: { description: 'No organization covers the domain: sign in by e-mail code' },
      },
    },
    async (c, { query }) => {
      const covering = await coveringProvider(deps.database.db, query.email)
      if (!covering) throw notFound('No organization sign-in covers this address.')
      return c.json({ organizationName: covering.organizationName }, 200)
    },
  )

  api.route(
    {
      ...identityEndpoints.start,
      summary:
        "Start signing in with the organization's identity provider: redirects (302) to it with PKCE, state and nonce",
      access: 'public',
      responses: {
        302: { description: 'To the identity provider, or back to the sign-in page with `sso=<reason>`' },
      },
    },
    async (c, { query }) => {
      try {
        const url = await startOidcSignIn(deps, query)
        return c.redirect(url ? url.toString() : refused('other_domain', query.locale), 302)
      } catch (error) {
        if (error instanceof OidcRefused) return c.redirect(refused(error.reason, error.locale), 302)
        throw error
      }
    },
  )

  api.route(
    {
      ...identityEndpoints.callback,
      summary:
        'Where the identity provider sends the browser back: checks the answer and ID token, signs in (the account made or linked at first sign-in) and redirects to the app',
      access: 'public',
      responses: {
        302: { description: 'To the app, signed in, or to the sign-in page with `sso=<reason>`' },
      },
    },
    async (c) => {
      try {
        const signedIn = await finishOidcSignIn(deps, new URL(c.req.url).search)
        if (c.var.session) await deleteSession(deps, c.var.session.idHash)
        const { sessionId, expiresAt } = await createSession(
          deps,
          signedIn.user.id,
          c.req.header('user-agent'),
        )
        setSessionCookie(c, deps.config, sessionId, { expiresAt, now: deps.clock.now() })
        return c.redirect(`${base(signedIn.locale)}/app`, 302)
      } catch (error) {
        if (error instanceof OidcRefused) return c.redirect(refused(error.reason, error.locale), 302)
        throw error
      }
    },
  )
}
