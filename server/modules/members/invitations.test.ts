import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import { createOrganization, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { memberships, users } from '../../db/schema.ts'

const t = setupTestApp()

async function adminNamed(firstName: string, lastName: string) {
  const world = await organizationWithAdmin(t, 'Agence Lumière')
  await t.patch('/api/profile', { cookie: world.admin.cookie, json: { firstName, lastName } })
  return world
}

describe('POST /api/organizations/{id}/users', () => {
  it('invites a new address: account in the given language, INVITED, mail with the sign-in link', async () => {
    const { organization, admin } = await adminNamed('Ana', 'Martin')
    const email = uniqueEmail('invitee')
    const response = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: email.toUpperCase(), role: 'MANAGER', firstName: 'Léo', lastName: 'Roy', locale: 'en' },
    })
    expect(response.status).toBe(201)
    expect(await response.json()).toMatchObject({
      email,
      firstName: 'Léo',
      lastName: 'Roy',
      role: 'MANAGER',
      status: 'INVITED',
    })
    const mail = t.mail.last(email)!
    expect(mail.subject).toBe('Ana Martin invited you to Agence Lumière on Trousseau')
    expect(mail.text).toContain('as manager')
    expect(mail.text).toContain(`${t.config.publicUrl}/en/sign-in`)
    expect(mail.html).toContain('lang="en"')
    const [account] = await t.db.select().from(users).where(eq(users.email, email))
    expect(account).toMatchObject({ locale: 'en', signedInAt: null })
  })

  it('invites an address with an apostrophe, and one at an international domain (in punycode)', async () => {
    const { organization, admin } = await adminNamed('Ana', 'Martin')
    for (const asked of [`o'brien-${Date.now()}@example.com`, `lea-${Date.now()}@xn--mller-kva.de`]) {
      const response = await t.post(`/api/organizations/${organization.id}/users`, {
        cookie: admin.cookie,
        json: { email: asked, role: 'MEMBER' },
      })
      expect(response.status).toBe(201)
      expect((await response.json()).email).toBe(asked)
      expect(t.mail.last(asked)).toBeTruthy()
    }
  })

  it("writes in French by default, and in an existing account's own language whatever the request says", async () => {
    const { organization, admin } = await adminNamed('Ana', 'Martin')
    const french = uniqueEmail()
    await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: french, role: 'MEMBER' },
    })
    expect(t.mail.last(french)!.subject).toBe(
      'Ana Martin vous invite à rejoindre Agence Lumière sur Trousseau',
    )
    expect(t.mail.last(french)!.text).toContain(`${t.config.publicUrl}/sign-in`)
    expect(t.mail.last(french)!.text).toContain('en tant que membre')

    const english = uniqueEmail()
    await t.signIn(english, { locale: 'en' })
    await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: english, role: 'CONTACT', locale: 'fr' },
    })
    expect(t.mail.last(english)!.subject).toBe('Ana Martin invited you to Agence Lumière on Trousseau')
  })

  it('names the inviter by e-mail when they have no name, and escapes names in HTML', async () => {
    const { organization, admin } = await organizationWithAdmin(t, '<b>Bold</b> & Co')
    const email = uniqueEmail()
    await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email, role: 'MEMBER' },
    })
    const mail = t.mail.last(email)!
    expect(mail.text).toContain(admin.email)
    expect(mail.html).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; Co')
    expect(mail.html).not.toContain('<b>Bold</b>')
  })

  it('answers 409 for somebody already a member, whatever their status', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const email = uniqueEmail()
    const invite = () =>
      t.post(`/api/organizations/${organization.id}/users`, {
        cookie: admin.cookie,
        json: { email, role: 'MEMBER' },
      })
    expect((await invite()).status).toBe(201)
    const again = await invite()
    expect(again.status).toBe(409)
    expect((await again.json()).error).toEqual({
      code: 'conflict',
      message: 'This person is already a member of the organization.',
    })
    const self = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: admin.email, role: 'MEMBER' },
    })
    expect(self.status).toBe(409)
  })

  it("never reveals an existing account's names: e-mail only until they are ACTIVE here", async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const email = uniqueEmail('known')
    const known = await t.signIn(email)
    await t.patch('/api/profile', { cookie: known.cookie, json: { firstName: 'Secret', lastName: 'Name' } })
    const response = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email, role: 'MEMBER', firstName: 'Typed', lastName: 'ByAdmin' },
    })
    expect(response.status).toBe(201)
    const hidden = { id: known.profile.id, email, firstName: '', lastName: '', status: 'INVITED' }
    expect(await response.json()).toMatchObject(hidden)
    expect(
      await (await t.get(`/api/users/${known.profile.id}`, { cookie: admin.cookie })).json(),
    ).toMatchObject(hidden)
    for (const path of ['/api/users', `/api/organizations/${organization.id}/users`]) {
      const { data } = await (await t.get(path, { cookie: admin.cookie })).json()
      expect(data.find((member: { id: string }) => member.id === known.profile.id)).toMatchObject(hidden)
    }
    // Revoked and enabled again: still not ACTIVE, still hidden.
    await t.patch(`/api/users/${known.profile.id}`, { cookie: admin.cookie, json: { status: 'DISABLED' } })
    const revoked = await (await t.get(`/api/users/${known.profile.id}`, { cookie: admin.cookie })).json()
    expect(revoked).toMatchObject({ firstName: '', lastName: '', status: 'DISABLED' })
    const enabled = await t.patch(`/api/users/${known.profile.id}`, {
      cookie: admin.cookie,
      json: { status: 'ACTIVE' },
    })
    expect(await enabled.json()).toMatchObject({ ...hidden, status: 'INVITED' })

    // An account never signed in but invited elsewhere too: hidden as well.
    const other = await organizationWithAdmin(t, 'Other')
    const shared = uniqueEmail()
    await t.post(`/api/organizations/${other.organization.id}/users`, {
      cookie: other.admin.cookie,
      json: { email: shared, role: 'MEMBER', firstName: 'Named', lastName: 'Elsewhere' },
    })
    const second = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: shared, role: 'MEMBER' },
    })
    expect(await second.json()).toMatchObject({ email: shared, firstName: '', lastName: '' })

    // Once they sign in (accepting), the organization sees their names.
    await t.signIn(email)
    expect(
      await (await t.get(`/api/users/${known.profile.id}`, { cookie: admin.cookie })).json(),
    ).toMatchObject({
      firstName: 'Secret',
      lastName: 'Name',
      status: 'ACTIVE',
    })
  })

  it('answers 400 for a bad address or role, 404 for a foreign organization, 403 for a MANAGER', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const bad = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: 'nope', role: 'MEMBER' },
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toBe('E-mail must be a valid address.')
    const badRole = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: uniqueEmail(), role: 'OWNER' },
    })
    expect(badRole.status).toBe(400)
    const foreign = await createOrganization(t, 'Foreign')
    const elsewhere = await t.post(`/api/organizations/${foreign.id}/users`, {
      cookie: admin.cookie,
      json: { email: uniqueEmail(), role: 'MEMBER' },
    })
    expect(elsewhere.status).toBe(404)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const refused = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: manager.cookie,
      json: { email: uniqueEmail(), role: 'MEMBER' },
    })
    expect(refused.status).toBe(403)
  })
})

describe('the first sign-in of an invitee', () => {
  it('makes the membership ACTIVE, selects the organization and grants the role', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const email = uniqueEmail()
    await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email, role: 'MEMBER' },
    })
    const { profile } = await t.signIn(email)
    expect(profile.selectedOrganizationId).toBe(organization.id)
    expect(profile.permissions).toEqual(permissionsFor('MEMBER'))
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, profile.id))
    expect(membership!.status).toBe('ACTIVE')
    const listed = await (
      await t.get(`/api/organizations/${organization.id}/users`, { cookie: admin.cookie })
    ).json()
    expect(listed.data.find((each: { email: string }) => each.email === email).status).toBe('ACTIVE')
  })
})
