import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { HoldingsPage } from '../../../contract/reports.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { makeTransfer, transferWorld } from '../../../tests/server/transfers.ts'

const t = setupTestAppAtEpoch()

type Page = { data: Transfer[]; nextCursor: string | null }

/**
 * At TEST_EPOCH (2030-01-15 in Paris): the world's MEMBER holds "Cave" by hand and "Bureau" through a transfer
 * due back on the 18th; the CONTACT holds "Remise", late (due back on the 13th); the MEMBER has three transfers
 * in all (one returned, one upcoming).
 */
async function memberWorld() {
  const world = await transferWorld(t)
  const { organization, member, contact } = world
  const bureau = await makeKeychain(t, organization.id, 'Bureau', member.id)
  const remise = await makeKeychain(t, organization.id, 'Remise', contact.id)
  const out = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: bureau.id,
    recipientId: member.id,
    fromDate: '2030-01-14',
    toDate: '2030-01-18',
    status: 'TRANSFERRED',
  })
  const late = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: remise.id,
    recipientId: contact.id,
    fromDate: '2030-01-10',
    toDate: '2030-01-13',
    status: 'TRANSFERRED',
  })
  const returned = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: remise.id,
    recipientId: member.id,
    fromDate: '2030-01-02',
    toDate: '2030-01-05',
    status: 'RETURNED',
  })
  const upcoming = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: remise.id,
    recipientId: member.id,
    fromDate: '2030-01-25',
    toDate: '2030-01-27',
  })
  return { ...world, bureau, remise, out, late, returned, upcoming }
}

describe('GET /users/{id}/holdings', () => {
  it('lists what the member holds now, by name, with the day a transfer brings it back', async () => {
    const { admin, member, out } = await memberWorld()
    const response = await t.get(`/api/users/${member.id}/holdings`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    const page = (await response.json()) as HoldingsPage
    expect(page.person).toMatchObject({ id: member.id, role: 'MEMBER' })
    expect(page.data.map((held) => [held.name, held.dueBack])).toEqual([
      ['Bureau', { transferId: out.id, toDate: '2030-01-18', overdue: false }],
      ['Cave', null],
    ])
    expect(page.data[1]?.keys).toEqual([{ name: 'Porte', type: 'TAG', tagCode: expect.any(String) }])
  })

  it('says when a keychain is late, and pages by name', async () => {
    const { admin, contact, late, organization } = await memberWorld()
    for (const name of ['Atelier', 'Zinc']) await makeKeychain(t, organization.id, name, contact.id)
    const first = (await (
      await t.get(`/api/users/${contact.id}/holdings?limit=2`, { cookie: admin.cookie })
    ).json()) as HoldingsPage
    expect(first.data.map((held) => held.name)).toEqual(['Atelier', 'Remise'])
    expect(first.data[1]?.dueBack).toEqual({ transferId: late.id, toDate: '2030-01-13', overdue: true })
    const next = (await (
      await t.get(`/api/users/${contact.id}/holdings?limit=2&cursor=${first.nextCursor}`, {
        cookie: admin.cookie,
      })
    ).json()) as HoldingsPage
    expect(next.data.map((held) => held.name)).toEqual(['Zinc'])
    expect(next.nextCursor).toBeNull()
  })
})

describe('GET /users/{id}/transfers', () => {
  it('lists the transfers addressed to the member only, newest window first, page by page', async () => {
    const { admin, member, out, returned, upcoming } = await memberWorld()
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const url = `/api/users/${member.id}/transfers?limit=2${cursor ? `&cursor=${cursor}` : ''}`
      const response = await t.get(url, { cookie: admin.cookie })
      expect(response.status).toBe(200)
      const page = (await response.json()) as Page
      expect(page.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.data.map((each) => each.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual([upcoming.id, out.id, returned.id])
  })
})

describe('who reads a member’s page', () => {
  const parts = ['holdings', 'transfers'] as const

  it('ADMIN and MANAGER read anyone’s; MEMBER and CONTACT their own only (403 for someone else’s)', async () => {
    const { admin, member, contact, organization } = await memberWorld()
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    for (const part of parts) {
      const status = async (cookie: string, id: string) =>
        (await t.get(`/api/users/${id}/${part}`, { cookie })).status
      expect(await status(admin.cookie, member.id), part).toBe(200)
      expect(await status(manager.cookie, contact.id), part).toBe(200)
      expect(await status(member.cookie, member.id), part).toBe(200)
      expect(await status(contact.cookie, contact.id), part).toBe(200)
      expect(await status(member.cookie, contact.id), part).toBe(403)
      expect(await status(contact.cookie, member.id), part).toBe(403)
      expect(await status(member.cookie, admin.id), part).toBe(403)
    }
    // A member's own list holds nothing of anyone else's.
    const own = (await (
      await t.get(`/api/users/${contact.id}/transfers`, { cookie: contact.cookie })
    ).json()) as Page
    expect(own.data.every((each) => each.recipient.id === contact.id)).toBe(true)
  })

  it('answers 404 for another organization’s member or an unknown id, whoever asks; 400 for a malformed id or cursor', async () => {
    const { admin, member } = await memberWorld()
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const stranger = await signedInMember(t, other.organization.id, 'MEMBER')
    for (const part of parts) {
      for (const cookie of [admin.cookie, member.cookie]) {
        for (const id of [other.admin.id, stranger.id, randomUUID()]) {
          const response = await t.get(`/api/users/${id}/${part}`, { cookie })
          expect(response.status, `${part} ${id}`).toBe(404)
          expect((await response.json()).error.code).toBe('not_found')
        }
      }
      // The other organization's admin does not see this one's member either.
      expect((await t.get(`/api/users/${member.id}/${part}`, { cookie: other.admin.cookie })).status).toBe(
        404,
      )
      for (const path of [`/api/users/not-an-id/${part}`, `/api/users/${member.id}/${part}?cursor=abc`]) {
        const response = await t.get(path, { cookie: admin.cookie })
        expect(response.status, path).toBe(400)
        expect((await response.json()).error.code).toBe('validation_failed')
      }
    }
  })
})
