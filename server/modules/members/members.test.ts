import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  createOrganization,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { memberships, sessions, users } from '../../db/schema.ts'
import { updateMember } from './update.ts'

const t = setupTestApp()

describe('GET /api/users', () => {
  it('lists the members of the selected organization only', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const other = await organizationWithAdmin(t, 'Other')
    const response = await t.get('/api/users', { cookie: manager.cookie })
    expect(response.status).toBe(200)
    const ids = (await response.json()).data.map((member: { id: string }) => member.id)
    expect(ids.sort()).toEqual([admin.id, manager.id].sort())
    expect(ids).not.toContain(other.admin.id)
  })

  it('answers 400 no_organization_selected without a selection, 403 for a MEMBER', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await t.get('/api/users', { cookie })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: { code: 'no_organization_selected', message: 'No organization selected' },
    })
    const { organization } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.get('/api/users', { cookie: member.cookie })).status).toBe(403)
  })
})

describe('GET /api/organizations/{id}/users', () => {
  it('lists the members of that organization; 400 for a malformed id, 404 for a foreign one, 403 for a MEMBER', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const contact = await signedInMember(t, organization.id, 'CONTACT', { status: 'INVITED' })
    const response = await t.get(`/api/organizations/${organization.id}/users`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    const { data } = await response.json()
    expect(data.map((member: { id: string; status: string }) => [member.id, member.status]).sort()).toEqual(
      [
        [admin.id, 'ACTIVE'],
        [contact.id, 'INVITED'],
      ].sort(),
    )
    expect((await t.get('/api/organizations/42/users', { cookie: admin.cookie })).status).toBe(400)
    const other = await organizationWithAdmin(t, 'Other')
    expect(
      (await t.get(`/api/organizations/${other.organization.id}/users`, { cookie: admin.cookie })).status,
    ).toBe(404)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect(
      (await t.get(`/api/organizations/${organization.id}/users`, { cookie: member.cookie })).status,
    ).toBe(403)
  })
})

describe('GET /api/users/{id}', () => {
  it('answers a member, 404 for a member of another organization, 400 for a malformed id', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const response = await t.get(`/api/users/${member.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      id: member.id,
      email: member.email,
      role: 'MEMBER',
      status: 'ACTIVE',
    })
    const other = await organizationWithAdmin(t, 'Other')
    expect((await t.get(`/api/users/${other.admin.id}`, { cookie: admin.cookie })).status).toBe(404)
    expect((await t.get('/api/users/123', { cookie: admin.cookie })).status).toBe(400)
  })
})

describe('PATCH /api/users/{id}', () => {
  it('lets an ADMIN change role and status', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    await t.patch('/api/profile', { cookie: member.cookie, json: { firstName: 'Zoé', lastName: 'Blanc' } })
    const response = await t.patch(`/api/users/${member.id}`, {
      cookie: admin.cookie,
      json: { role: 'MANAGER', firstName: 'Zoé' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      firstName: 'Zoé',
      lastName: 'Blanc',
      role: 'MANAGER',
      status: 'ACTIVE',
    })
    const profile = await (await t.get('/api/profile', { cookie: member.cookie })).json()
    expect(profile.permissions).toContain('create__keychain')
  })

  it("changes names only of the organization's own invitee (INVITED, never signed in, nowhere else)", async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const invite = async (email: string) =>
      (
        await t.post(`/api/organizations/${organization.id}/users`, {
          cookie: admin.cookie,
          json: { email, role: 'MEMBER', firstName: 'Léo' },
        })
      ).json()
    const invitee = await invite(uniqueEmail())
    const renamed = await t.patch(`/api/users/${invitee.id}`, {
      cookie: admin.cookie,
      json: { firstName: ' Zoé ', lastName: 'Blanc' },
    })
    expect(renamed.status).toBe(200)
    expect(await renamed.json()).toMatchObject({ firstName: 'Zoé', lastName: 'Blanc', status: 'INVITED' })

    const locked = {
      code: 'member_names_locked',
      message:
        'The name can change only while the member is invited and has not signed in yet: afterwards it is theirs to change in their profile.',
    }
    const active = await signedInMember(t, organization.id, 'MEMBER')
    const stranger = uniqueEmail()
    await t.signIn(stranger)
    const invitedAccount = await invite(stranger)
    const elsewhere = await organizationWithAdmin(t, 'Elsewhere')
    const shared = await invite(uniqueEmail())
    await t.post(`/api/organizations/${elsewhere.organization.id}/users`, {
      cookie: elsewhere.admin.cookie,
      json: { email: shared.email, role: 'MEMBER' },
    })
    for (const id of [active.id, invitedAccount.id, shared.id, admin.id]) {
      for (const json of [{ firstName: 'Pirate' }, { lastName: 'Pirate' }]) {
        const response = await t.patch(`/api/users/${id}`, { cookie: admin.cookie, json })
        expect(response.status).toBe(409)
        expect((await response.json()).error).toEqual(locked)
      }
    }
    const [account] = await t.db.select().from(users).where(eq(users.id, shared.id))
    expect(account).toMatchObject({ firstName: 'Léo', lastName: '' })
    // The person's own profile stays theirs.
    const own = await t.patch('/api/profile', { cookie: active.cookie, json: { firstName: 'Moi' } })
    expect(own.status).toBe(200)
  })

  it('revokes an invitation: DISABLED on an INVITED member, who then gets nothing at sign-in', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const email = uniqueEmail()
    const invited = await (
      await t.post(`/api/organizations/${organization.id}/users`, {
        cookie: admin.cookie,
        json: { email, role: 'ADMIN' },
      })
    ).json()
    expect(invited.status).toBe('INVITED')
    const revoked = await t.patch(`/api/users/${invited.id}`, {
      cookie: admin.cookie,
      json: { status: 'DISABLED' },
    })
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toMatchObject({ id: invited.id, status: 'DISABLED', role: 'ADMIN' })
    const { cookie, profile } = await t.signIn(email)
    expect(profile).toMatchObject({ selectedOrganizationId: null, permissions: [] })
    expect((await t.get(`/api/organizations/${organization.id}`, { cookie })).status).toBe(404)
    const [row] = await t.db.select().from(memberships).where(eq(memberships.userId, invited.id))
    expect(row!.status).toBe('DISABLED')
  })

  it('refuses to demote or disable the last active ADMIN, and allows it once there is another', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const json of [{ role: 'MANAGER' }, { status: 'DISABLED' }]) {
      const response = await t.patch(`/api/users/${admin.id}`, { cookie: admin.cookie, json })
      expect(response.status).toBe(409)
      expect((await response.json()).error).toEqual({
        code: 'conflict',
        message:
          'The organization needs at least one active administrator: make someone else administrator first.',
      })
    }
    const second = await signedInMember(t, organization.id, 'ADMIN')
    expect(
      (await t.patch(`/api/users/${admin.id}`, { cookie: second.cookie, json: { role: 'MEMBER' } })).status,
    ).toBe(200)
    const last = await t.patch(`/api/users/${second.id}`, {
      cookie: second.cookie,
      json: { status: 'DISABLED' },
    })
    expect(last.status).toBe(409)
  })

  it('never leaves the organization without an admin when two admins demote each other at once', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const second = await signedInMember(t, organization.id, 'ADMIN')
    const results = await Promise.all([
      t.patch(`/api/users/${second.id}`, { cookie: admin.cookie, json: { role: 'MEMBER' } }),
      t.patch(`/api/users/${admin.id}`, { cookie: second.cookie, json: { role: 'MEMBER' } }),
    ])
    // The loser is refused by the rule (409) or, if the winner committed first, by losing the role (403).
    const statuses = results.map((response) => response.status).sort()
    expect(statuses[0]).toBe(200)
    expect([403, 409]).toContain(statuses[1])
    const rows = await t.db.select().from(memberships).where(eq(memberships.organizationId, organization.id))
    expect(rows.filter((row) => row.role === 'ADMIN' && row.status === 'ACTIVE')).toHaveLength(1)
  })

  it("re-reads the actor's membership under the lock: a demoted admin's change never commits", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { organization, admin } = await organizationWithAdmin(t)
      const second = await signedInMember(t, organization.id, 'ADMIN')
      await signedInMember(t, organization.id, 'ADMIN') // a third, so the last-admin rule stays out of it
      const [demotion, disabling] = await Promise.all([
        t.patch(`/api/users/${second.id}`, { cookie: admin.cookie, json: { role: 'MEMBER' } }),
        t.patch(`/api/users/${admin.id}`, { cookie: second.cookie, json: { status: 'DISABLED' } }),
      ])
      // Whichever commits first takes the other's right away: exactly one applies, the other is a 403.
      expect([demotion.status, disabling.status].sort()).toEqual([200, 403])
      const rows = await t.db
        .select()
        .from(memberships)
        .where(eq(memberships.organizationId, organization.id))
      const secondRow = rows.find((row) => row.userId === second.id)!
      const adminRow = rows.find((row) => row.userId === admin.id)!
      expect(secondRow.role === 'MEMBER' && adminRow.status === 'DISABLED').toBe(false)
    }
  })

  it('answers 403 when the actor lost the ADMIN role after the access check (service level)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const second = await signedInMember(t, organization.id, 'ADMIN')
    const member = await signedInMember(t, organization.id, 'MEMBER')
    await t.patch(`/api/users/${second.id}`, { cookie: admin.cookie, json: { role: 'MEMBER' } })
    await expect(
      updateMember(t.deps, {
        organizationId: organization.id,
        actorId: second.id,
        userId: member.id,
        update: { status: 'DISABLED' },
      }),
    ).rejects.toMatchObject({ status: 403 })
    const [row] = await t.db.select().from(memberships).where(eq(memberships.userId, member.id))
    expect(row!.status).toBe('ACTIVE')
  })

  it('changes the e-mail only while the member has not signed in yet', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const invited = await (
      await t.post(`/api/organizations/${organization.id}/users`, {
        cookie: admin.cookie,
        json: { email: uniqueEmail(), role: 'MEMBER' },
      })
    ).json()
    const fixed = uniqueEmail('fixed')
    const response = await t.patch(`/api/users/${invited.id}`, {
      cookie: admin.cookie,
      json: { email: fixed },
    })
    expect(response.status).toBe(200)
    expect((await response.json()).email).toBe(fixed)
    const taken = await t.patch(`/api/users/${invited.id}`, {
      cookie: admin.cookie,
      json: { email: admin.email },
    })
    expect((await taken.json()).error.message).toBe('Another account already uses this e-mail.')

    const active = await signedInMember(t, organization.id, 'MEMBER')
    const refused = await t.patch(`/api/users/${active.id}`, {
      cookie: admin.cookie,
      json: { email: uniqueEmail() },
    })
    expect(refused.status).toBe(409)
    expect((await refused.json()).error.message).toBe(
      'The e-mail can change only while the member has not signed in yet.',
    )
  })

  it('disabling ends the sessions of someone with no other organization, and no more', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const loner = await signedInMember(t, organization.id, 'MEMBER')
    const disabled = await t.patch(`/api/users/${loner.id}`, {
      cookie: admin.cookie,
      json: { status: 'DISABLED' },
    })
    expect(disabled.status).toBe(200)
    expect((await disabled.json()).status).toBe('DISABLED')
    expect((await t.get('/api/profile', { cookie: loner.cookie })).status).toBe(401)

    const elsewhere = await createOrganization(t, 'Elsewhere')
    const busy = await signedInMember(t, organization.id, 'MANAGER')
    await addMember(t, { userId: busy.id, organizationId: elsewhere.id, role: 'MEMBER', select: false })
    await t.patch(`/api/users/${busy.id}`, { cookie: admin.cookie, json: { status: 'DISABLED' } })
    const profile = await t.get('/api/profile', { cookie: busy.cookie })
    expect(profile.status).toBe(200)
    expect(await profile.json()).toMatchObject({ selectedOrganizationId: null, permissions: [] })
    expect((await t.get(`/api/organizations/${organization.id}`, { cookie: busy.cookie })).status).toBe(404)
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, busy.id))).toHaveLength(1)

    // Enabled again as INVITED (names hidden meanwhile): ACTIVE at their next sign-in.
    const enabled = await t.patch(`/api/users/${busy.id}`, {
      cookie: admin.cookie,
      json: { status: 'ACTIVE' },
    })
    expect(await enabled.json()).toMatchObject({ status: 'INVITED', firstName: '', lastName: '' })
    expect((await t.get(`/api/organizations/${organization.id}`, { cookie: busy.cookie })).status).toBe(200)
    await t.signIn(busy.email)
    expect((await t.get(`/api/users/${busy.id}`, { cookie: admin.cookie })).status).toBe(200)
    expect((await (await t.get(`/api/users/${busy.id}`, { cookie: admin.cookie })).json()).status).toBe(
      'ACTIVE',
    )
  })

  it('answers 403 to a MANAGER, 404 for a foreign member, 400 for an unknown field or bad status', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    expect(
      (await t.patch(`/api/users/${admin.id}`, { cookie: manager.cookie, json: { firstName: 'X' } })).status,
    ).toBe(403)
    const other = await organizationWithAdmin(t, 'Other')
    expect(
      (await t.patch(`/api/users/${other.admin.id}`, { cookie: admin.cookie, json: { firstName: 'X' } }))
        .status,
    ).toBe(404)
    const badStatus = await t.patch(`/api/users/${manager.id}`, {
      cookie: admin.cookie,
      json: { status: 'INVITED' },
    })
    expect((await badStatus.json()).error.message).toBe('Status must be ACTIVE or DISABLED.')
    expect(
      (await t.patch(`/api/users/${manager.id}`, { cookie: admin.cookie, json: { phone: '1' } })).status,
    ).toBe(400)
  })
})

describe('the members list', () => {
  it('is sorted by last name, then first name, whatever their case, then by address', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Sorted')
    const named = async (firstName: string, lastName: string) => {
      const member = await signedInMember(t, organization.id, 'MEMBER')
      await t.db.update(users).set({ firstName, lastName }).where(eq(users.id, member.id))
      return member
    }
    const zoe = await named('Zoé', 'ADAM')
    const bea = await named('bea', 'Martin')
    const anne = await named('Anne', 'martin')
    const twinA = await named('Anne', 'Martin')
    // Compared in lower case: '_' sorts before the lower-case letters and after the capitals.
    const underscored = await named('Anne', 'Mar_tin')
    const a_b = await named('a_b', 'Martin')
    await t.db.update(users).set({ lastName: 'Zz' }).where(eq(users.id, admin.id))
    const { data } = (await (await t.get('/api/users', { cookie: admin.cookie })).json()) as {
      data: Array<{ id: string; email: string }>
    }
    const twins = [anne, twinA].sort((a, b) => (a.email < b.email ? -1 : 1)).map((member) => member.id)
    expect(data.map((member) => member.id)).toEqual([
      zoe.id,
      underscored.id,
      a_b.id,
      ...twins,
      bea.id,
      admin.id,
    ])
  })
})
