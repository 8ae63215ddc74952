import { createServer, type Server } from 'node:http'
import { and, eq } from 'drizzle-orm'
import Provider from 'oidc-provider'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memberships, userIdentities, users } from '../../server/db/schema.ts'
import { freePort } from '../server/processes.ts'
import { openAccountMenu } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

const ADMIN = 'nora.admin@example.com'
const DOMAIN = 'campus.example'
const CLIENT = { client_id: 'trousseau', client_secret: 'a-secret-only-the-test-knows' }

let stack: Stack
let provider: Server
let issuer: string

/**
 * A real OpenID provider on this machine (`oidc-provider`, its development login and consent pages): anyone
 * signs in with any password; the login names the account, whose address is `<login>@campus.example`.
 */
async function startProvider(redirectUri: string): Promise<void> {
  const port = await freePort()
  issuer = `http://localhost:${port}`
  const oidc = new Provider(issuer, {
    clients: [
      {
        ...CLIENT,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: `${id}@${DOMAIN}`,
        email_verified: true,
        given_name: id[0]!.toUpperCase() + id.slice(1),
        family_name: 'Campus',
      }),
    }),
    cookies: { keys: ['oidc-e2e-cookie-key'] },
    pkce: { required: () => true },
  })
  provider = createServer(oidc.callback())
  await new Promise<void>((resolve) => provider.listen(port, '127.0.0.1', resolve))
}

beforeAll(async () => {
  stack = await startStack({ OIDC_ALLOW_HTTP_ISSUERS: 'true', OIDC_DOMAIN_PROOF: 'confirm' })
  await startProvider(`${stack.baseUrl}/api/auth/oidc/callback`)
})

afterAll(async () => {
  await new Promise((resolve) => provider?.close(resolve))
  await stack?.stop()
})

/** At the provider's own pages: its login (any password), then its consent. */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === issuer)
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('anything')
  await page.locator('button[type="submit"]').click()
  const consent = page.getByRole('button', { name: 'Continue' })
  if (await consent.isVisible({ timeout: 5000 }).catch(() => false)) await consent.click()
}

describe('signing in with the organization’s identity provider, in a real browser', () => {
  it('an admin sets it up; a new hire signs in through it with an account and the default role, twice as the same account; a replayed answer is refused in words', async () => {
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Campus Nord')
    await stack.withPage(async (page) => {
      await stack.signInByCode(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/app/organizations/${organizationId}`)
      await page.getByText(`${stack.baseUrl}/api/auth/oidc/callback`).waitFor()
      await page.getByLabel('Émetteur (issuer)').fill(issuer)
      await page.getByLabel('Identifiant client').fill(CLIENT.client_id)
      await page.getByLabel('Secret client').fill(CLIENT.client_secret)
      await page.getByLabel('Rôle des personnes à leur première connexion').selectOption('MEMBER')
      await page.getByRole('button', { name: 'Enregistrer le fournisseur' }).click()
      await page.getByText('Fournisseur d’identité enregistré.').waitFor()
      await page.getByLabel('Domaine', { exact: true }).fill(DOMAIN)
      await page.getByRole('button', { name: 'Ajouter le domaine' }).click()
      await page.getByText(/En attente : publiez l’enregistrement DNS TXT/).waitFor()
      await page.getByRole('button', { name: 'Confirmer qu’il est à nous' }).click()
      await page.getByText(/Confirmé par un administrateur le .*, sans preuve DNS/).waitFor()
    })

    let callback = ''
    await stack.withPage(async (page) => {
      await page.goto('/en/sign-in')
      await page.locator('#root[data-ready]').waitFor()
      await page.getByLabel('E-mail').fill(`ada@${DOMAIN}`)
      await page.getByRole('link', { name: 'Continue with Campus Nord' }).click()
      page.on('request', (request) => {
        if (request.url().includes('/api/auth/oidc/callback')) callback = request.url()
      })
      await signInAtProvider(page, 'ada')
      await page.waitForURL((url) => url.pathname === '/en/app')
      expect(await page.evaluate(() => fetch('/api/profile').then((response) => response.status))).toBe(200)
      await page.screenshot({ path: 'reports/oidc/01-signed-in.png' })
    })
    // The provider's answer played again in another browser: its state was used once, so it is refused, in words.
    await stack.withPage(async (page) => {
      await page.goto(callback)
      await page.waitForURL((url) => url.pathname === '/sign-in' && url.search === '?sso=expired_attempt')
      await page
        .getByRole('alert')
        .filter({ hasText: 'La connexion a pris trop de temps ou a déjà servi. Recommencez.' })
        .waitFor()
      await page.screenshot({ path: 'reports/oidc/02-refused.png' })
    })
    const { db } = stack.deps.database
    const [ada] = await db
      .select()
      .from(users)
      .where(eq(users.email, `ada@${DOMAIN}`))
    expect(ada).toMatchObject({ firstName: 'Ada', lastName: 'Campus', locale: 'en' })
    const [membership] = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, ada!.id), eq(memberships.organizationId, organizationId)))
    expect(membership).toMatchObject({ role: 'MEMBER', status: 'ACTIVE' })

    // Signed out from the account menu, and in again: the same account, found by the provider's subject.
    await stack.withPage(async (page) => {
      await page.goto('/en/sign-in')
      await page.locator('#root[data-ready]').waitFor()
      await page.getByLabel('E-mail').fill(`ada@${DOMAIN}`)
      await page.getByRole('link', { name: 'Continue with Campus Nord' }).click()
      await signInAtProvider(page, 'ada')
      await page.waitForURL((url) => url.pathname === '/en/app')
      await openAccountMenu(page)
      await page.getByRole('button', { name: 'Sign out' }).first().click()
      await page.waitForURL((url) => url.pathname !== '/en/app')
      expect(await page.evaluate(() => fetch('/api/profile').then((response) => response.status))).toBe(401)
      await page.goto('/en/sign-in')
      await page.locator('#root[data-ready]').waitFor()
      await page.getByLabel('E-mail').fill(`ada@${DOMAIN}`)
      await page.getByRole('link', { name: 'Continue with Campus Nord' }).click()
      // The provider still knows this browser: it may send it back at once, or ask again.
      await page.waitForURL((url) => url.pathname === '/en/app' || url.origin === issuer)
      if (new URL(page.url()).origin === issuer) await signInAtProvider(page, 'ada')
      await page.waitForURL((url) => url.pathname === '/en/app')
      expect(
        await page.evaluate(() => fetch('/api/profile').then((response) => response.json())),
      ).toMatchObject({
        email: `ada@${DOMAIN}`,
        selectedOrganizationId: organizationId,
      })
    })
    expect(
      await db
        .select()
        .from(users)
        .where(eq(users.email, `ada@${DOMAIN}`)),
    ).toHaveLength(1)
    expect(await db.select().from(userIdentities).where(eq(userIdentities.userId, ada!.id))).toEqual([
      expect.objectContaining({ organizationId, subject: 'ada' }),
    ])
  })
})
