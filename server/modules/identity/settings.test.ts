import { randomBytes } from 'node:crypto'
import { createSocket } from 'node:dgram'
import dns from 'node:dns'
import { syncBuiltinESMExports } from 'node:module'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MINUTE, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { startTestIdp } from '../../../tests/server/test-idp.ts'
import type { Config } from '../../config.ts'
import { identityDomains, identityProviders } from '../../db/schema.ts'
import { openSecret } from '../../shared/secret-box.ts'
import {
  addIdentityDomain,
  identitySettings,
  redirectUriOf,
  removeIdentityDomain,
  removeIdentityProvider,
  saveIdentityProvider,
  verifyIdentityDomain,
} from './settings.ts'

const t = setupTestApp({ config: { oidcAllowHttpIssuers: true, oidcDomainProof: 'confirm' } })
const CLIENT = { clientId: 'trousseau', clientSecret: 'a-very-secret-value' }
const REDIRECT_URI = 'http://localhost:3000/api/auth/oidc/callback'

/** The same server with other settings (the functions read them from their deps). */
const withConfig = (config: Partial<Config>) => ({ ...t.deps, config: { ...t.config, ...config } })

/**
 * A DNS server on the loopback answering TXT questions from `txt` (each record as its character strings),
 * NXDOMAIN otherwise: the default resolver asks it while the tests run (its functions imported by name rebound
 * to it), and the system's servers come back after.
 */
const txt = new Map<string, string[][]>()
const dnsServer = createSocket('udp4', (query, peer) => {
  let end = 12
  const labels: string[] = []
  while (query[end]! > 0) {
    labels.push(query.subarray(end + 1, end + 1 + query[end]!).toString('latin1'))
    end += query[end]! + 1
  }
  const question = query.subarray(12, end + 5)
  const records = query.readUInt16BE(end + 1) === 16 ? txt.get(labels.join('.').toLowerCase()) : undefined
  const answers = (records ?? []).map((strings) => {
    const data = Buffer.concat(
      strings.map((each) => Buffer.concat([Buffer.from([each.length]), Buffer.from(each)])),
    )
    const fixed = Buffer.alloc(12)
    fixed.writeUInt16BE(0xc00c, 0)
    fixed.writeUInt16BE(16, 2)
    fixed.writeUInt16BE(1, 4)
    fixed.writeUInt32BE(0, 6)
    fixed.writeUInt16BE(data.length, 10)
    return Buffer.concat([fixed, data])
  })
  const header = Buffer.alloc(12)
  header.writeUInt16BE(query.readUInt16BE(0), 0)
  header.writeUInt16BE(records ? 0x8180 : 0x8183, 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(answers.length, 6)
  dnsServer.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address)
})
let systemServers: string[]
let idp: Awaited<ReturnType<typeof startTestIdp>>
beforeAll(async () => {
  idp = await startTestIdp(CLIENT)
  await new Promise<void>((resolve) => dnsServer.bind(0, '127.0.0.1', resolve))
  systemServers = dns.getServers()
  dns.setServers([`127.0.0.1:${(dnsServer.address() as AddressInfo).port}`])
  syncBuiltinESMExports()
})
afterAll(async () => {
  dns.setServers(systemServers)
  syncBuiltinESMExports()
  dnsServer.close()
  await idp.close()
})

let organizationId: string
let serial = 0
beforeEach(async () => {
  serial += 1
  t.clock.set(TEST_EPOCH)
  organizationId = (await createOrganization(t, 'Campus')).id
})

const uniqueDomain = (name: string) => `${name}${serial}-${randomBytes(3).toString('hex')}.example`

/** The 400 a setting is refused with: its message, and the field it names. */
const invalid = (path: string, text: string | RegExp) => {
  const message = typeof text === 'string' ? text : expect.stringMatching(text)
  return { status: 400, code: 'validation_failed', message, issues: [{ path, message }] }
}

const storedProvider = async () =>
  (await t.db.select().from(identityProviders).where(eq(identityProviders.organizationId, organizationId)))[0]

describe('the redirect URI to register at the provider', () => {
  it('is the callback under the public address, without its trailing slashes', () => {
    expect(redirectUriOf('http://localhost:3000')).toBe(REDIRECT_URI)
    expect(redirectUriOf('https://keys.example/office//')).toBe(
      'https://keys.example/office/api/auth/oidc/callback',
    )
    expect(redirectUriOf('https://keys.example/a/b')).toBe('https://keys.example/a/b/api/auth/oidc/callback')
  })
})

describe('the organization’s identity provider', () => {
  it('is none at first, and the settings say where to send people back and how domains are proven', async () => {
    expect(await identitySettings(t.deps, organizationId)).toEqual({
      provider: null,
      redirectUri: REDIRECT_URI,
      domainProof: 'confirm',
      domains: [],
    })
    expect((await identitySettings(withConfig({ oidcDomainProof: 'dns' }), organizationId)).domainProof).toBe(
      'dns',
    )
  })

  it('is saved once its discovery answers, its secret sealed, and kept when a change leaves the secret out', async () => {
    const now = t.clock.now()
    const saved = await saveIdentityProvider(t.deps, organizationId, {
      issuer: idp.issuer,
      ...CLIENT,
      defaultRole: 'MANAGER',
    })
    expect(saved).toEqual({
      provider: {
        issuer: idp.issuer,
        clientId: 'trousseau',
        defaultRole: 'MANAGER',
        updatedAt: now.toISOString(),
      },
      redirectUri: REDIRECT_URI,
      domainProof: 'confirm',
      domains: [],
    })
    const first = await storedProvider()
    expect(first).toMatchObject({ createdAt: now, updatedAt: now })
    expect(first!.clientSecret).not.toContain(CLIENT.clientSecret)
    expect(openSecret(t.deps.secret, first!.clientSecret, 'identity-provider')).toBe(CLIENT.clientSecret)
    const later = t.clock.advance(MINUTE)
    const changed = await saveIdentityProvider(t.deps, organizationId, {
      issuer: idp.issuer,
      clientId: 'renamed',
      defaultRole: 'ADMIN',
    })
    expect(changed.provider).toEqual({
      issuer: idp.issuer,
      clientId: 'renamed',
      defaultRole: 'ADMIN',
      updatedAt: later.toISOString(),
    })
    const second = await storedProvider()
    expect(second).toMatchObject({ createdAt: now, updatedAt: later, clientSecret: first!.clientSecret })
    await saveIdentityProvider(t.deps, organizationId, {
      issuer: idp.issuer,
      clientId: 'renamed',
      clientSecret: 'another-secret',
      defaultRole: 'ADMIN',
    })
    expect(openSecret(t.deps.secret, (await storedProvider())!.clientSecret, 'identity-provider')).toBe(
      'another-secret',
    )
  })

  it('needs a secret the first time', async () => {
    await expect(
      saveIdentityProvider(t.deps, organizationId, {
        issuer: idp.issuer,
        clientId: 'x',
        defaultRole: 'MEMBER',
      }),
    ).rejects.toMatchObject(invalid('clientSecret', 'The client secret is required.'))
    expect(await storedProvider()).toBeUndefined()
  })

  it('must be at an https address, or an http one where the server allows it', async () => {
    const https = 'The issuer must be an https:// address.'
    const save = (deps: typeof t.deps, issuer: string) =>
      saveIdentityProvider(deps, organizationId, { issuer, ...CLIENT, defaultRole: 'MEMBER' })
    const strict = withConfig({ oidcAllowHttpIssuers: false })
    await expect(save(t.deps, 'ftp://127.0.0.1/')).rejects.toMatchObject(invalid('issuer', https))
    await expect(save(strict, 'ftp://127.0.0.1/')).rejects.toMatchObject(invalid('issuer', https))
    await expect(save(strict, idp.issuer)).rejects.toMatchObject(invalid('issuer', https))
    // An https address is taken as far as its discovery, which does not answer here.
    const unreachable = invalid(
      'issuer',
      /^The issuer's discovery document \(https:\/\/127\.0\.0\.1:9\/\.well-known\/openid-configuration\) could not be read or names another issuer: .+/,
    )
    await expect(save(strict, 'https://127.0.0.1:9')).rejects.toMatchObject(unreachable)
    await expect(save(t.deps, 'https://127.0.0.1:9')).rejects.toMatchObject(unreachable)
    expect(await storedProvider()).toBeUndefined()
  })

  it('is refused, naming the discovery document, when it does not answer or answers for another issuer', async () => {
    const save = (issuer: string) =>
      saveIdentityProvider(t.deps, organizationId, { issuer, ...CLIENT, defaultRole: 'MEMBER' })
    const error = (await save('http://127.0.0.1:9//').then(
      () => null,
      (caught: unknown) => caught,
    )) as Error
    expect(error.message).toMatch(
      /^The issuer's discovery document \(http:\/\/127\.0\.0\.1:9\/\.well-known\/openid-configuration\) could not be read or names another issuer: \S/,
    )
    const prefix = `The issuer's discovery document (${idp.issuer}/other/.well-known/openid-configuration) could not be read or names another issuer: `
    await expect(save(`${idp.issuer}/other//`)).rejects.toMatchObject(
      invalid('issuer', `${prefix}discovered metadata issuer does not match the expected issuer`),
    )
    expect(await storedProvider()).toBeUndefined()
  })

  it('can be removed, once', async () => {
    await saveIdentityProvider(t.deps, organizationId, {
      issuer: idp.issuer,
      ...CLIENT,
      defaultRole: 'MEMBER',
    })
    await removeIdentityProvider(t.deps, organizationId)
    expect((await identitySettings(t.deps, organizationId)).provider).toBeNull()
    await expect(removeIdentityProvider(t.deps, organizationId)).rejects.toMatchObject({
      status: 404,
      message: 'The organization has no identity provider.',
    })
  })
})

describe('the domains an organization’s sign-in covers', () => {
  it('are added pending, with their TXT record to publish, in alphabetical order, and again without harm', async () => {
    const later = uniqueDomain('zulu')
    const earlier = uniqueDomain('alpha')
    await addIdentityDomain(t.deps, organizationId, later)
    const settings = await addIdentityDomain(t.deps, organizationId, earlier)
    expect(settings.domains).toEqual([
      {
        domain: earlier,
        proof: null,
        txtName: `_trousseau.${earlier}`,
        txtValue: expect.stringMatching(/^trousseau-verification=[A-Za-z0-9_-]{22}$/),
        verifiedAt: null,
      },
      expect.objectContaining({
        domain: later,
        txtName: `_trousseau.${later}`,
        proof: null,
        verifiedAt: null,
      }),
    ])
    expect(settings.domains[0]!.txtValue).not.toBe(settings.domains[1]!.txtValue)
    const again = await addIdentityDomain(t.deps, organizationId, earlier)
    expect(again.domains).toEqual(settings.domains)
    const [row] = await t.db.select().from(identityDomains).where(eq(identityDomains.domain, earlier))
    expect(row).toMatchObject({ organizationId, createdAt: t.clock.now() })
  })

  it('belong to one organization: another’s is a conflict to add, and not found to verify or remove', async () => {
    const domain = uniqueDomain('taken')
    await addIdentityDomain(t.deps, organizationId, domain)
    const other = (await createOrganization(t, 'Other')).id
    await expect(addIdentityDomain(t.deps, other, domain)).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'Another organization already covers this domain.',
    })
    const notFound = { status: 404, message: 'No such domain.' }
    await expect(verifyIdentityDomain(t.deps, other, domain)).rejects.toMatchObject(notFound)
    await expect(removeIdentityDomain(t.deps, other, domain)).rejects.toMatchObject(notFound)
    await expect(verifyIdentityDomain(t.deps, organizationId, uniqueDomain('unknown'))).rejects.toMatchObject(
      notFound,
    )
    expect((await identitySettings(t.deps, organizationId)).domains).toEqual([
      expect.objectContaining({ domain, proof: null }),
    ])
    await removeIdentityDomain(t.deps, organizationId, domain)
    expect((await identitySettings(t.deps, organizationId)).domains).toEqual([])
  })

  it('are confirmed by an admin on a server without DNS, flagged as such, one at a time', async () => {
    const domain = uniqueDomain('confirmed')
    const pending = uniqueDomain('pending')
    await addIdentityDomain(t.deps, organizationId, domain)
    await addIdentityDomain(t.deps, organizationId, pending)
    const now = t.clock.advance(MINUTE)
    const settings = await verifyIdentityDomain(t.deps, organizationId, domain)
    expect(settings.domains.find((each) => each.domain === domain)).toMatchObject({
      proof: 'CONFIRMED',
      verifiedAt: now.toISOString(),
    })
    expect(settings.domains.find((each) => each.domain === pending)).toMatchObject({
      proof: null,
      verifiedAt: null,
    })
  })

  it('are proven by their TXT record where the server uses DNS, and refused until it is published', async () => {
    const dns = withConfig({ oidcDomainProof: 'dns' })
    const domain = uniqueDomain('dns')
    const { domains } = await addIdentityDomain(dns, organizationId, domain)
    const { txtValue } = domains[0]!
    const notYet = {
      status: 409,
      code: 'conflict',
      message: `The TXT record _trousseau.${domain} = "${txtValue}" was not found yet (DNS changes may take a while).`,
    }
    await expect(verifyIdentityDomain(dns, organizationId, domain)).rejects.toMatchObject(notYet)
    // Another value, or the value under another name, is no proof.
    txt.set(`_trousseau.${domain}`, [['trousseau-verification=someone-else']])
    txt.set(domain, [[txtValue]])
    await expect(verifyIdentityDomain(dns, organizationId, domain)).rejects.toMatchObject(notYet)
    expect((await identitySettings(dns, organizationId)).domains[0]).toMatchObject({
      proof: null,
      verifiedAt: null,
    })
    // Published, split in two strings as long records are, beside other records.
    const half = Math.floor(txtValue.length / 2)
    txt.set(`_trousseau.${domain}`, [['v=spf1 -all'], [txtValue.slice(0, half), txtValue.slice(half)]])
    const now = t.clock.advance(MINUTE)
    const settings = await verifyIdentityDomain(dns, organizationId, domain)
    expect(settings.domains).toEqual([
      { domain, proof: 'DNS', txtName: `_trousseau.${domain}`, txtValue, verifiedAt: now.toISOString() },
    ])
  })
})
