import { describe, expect, it } from 'vitest'
import type { ActivityEntry } from '../../../contract/activity.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'

const t = setupTestApp()

async function entries(cookie: string, kind: string): Promise<ActivityEntry[]> {
  const response = await t.get(`/api/activity?kind=${kind}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()).data
}

describe("the organization's ledger of its members", () => {
  it('records an invitation: by whom, whom, in which role', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const response = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: uniqueEmail('invitee'), role: 'MANAGER' },
    })
    expect(response.status).toBe(201)
    const invitee = await response.json()
    const [entry, ...more] = await entries(admin.cookie, 'member.invited')
    expect(more).toEqual([])
    expect(entry).toMatchObject({
      kind: 'member.invited',
      actor: { id: admin.id },
      payload: { memberId: invitee.id, role: 'MANAGER' },
      keychainIds: [],
      tagIds: [],
    })
  })

  it('records a change of role or status with what changed, and nothing for an update that changes nothing', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const patch = (json: object) => t.patch(`/api/users/${member.id}`, { cookie: admin.cookie, json })
    expect((await patch({ role: 'MEMBER' })).status).toBe(200)
    expect(await entries(admin.cookie, 'member.changed')).toEqual([])

    expect((await patch({ role: 'MANAGER' })).status).toBe(200)
    expect((await patch({ status: 'DISABLED' })).status).toBe(200)
    const [disabled, promoted, ...more] = await entries(admin.cookie, 'member.changed')
    expect(more).toEqual([])
    expect(promoted).toMatchObject({
      actor: { id: admin.id },
      payload: { memberId: member.id, changed: ['role'], role: 'MANAGER', status: 'ACTIVE' },
    })
    expect(disabled).toMatchObject({
      payload: { memberId: member.id, changed: ['status'], role: 'MANAGER', status: 'DISABLED' },
    })
    expect(disabled!.seq).toBeGreaterThan(promoted!.seq)
  })

  it('records nothing when the change is refused', async () => {
    const { admin } = await organizationWithAdmin(t)
    const alone = await t.patch(`/api/users/${admin.id}`, { cookie: admin.cookie, json: { role: 'MEMBER' } })
    expect(alone.status).toBe(409)
    expect(await entries(admin.cookie, 'member.changed')).toEqual([])
  })
})
