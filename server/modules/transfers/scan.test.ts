import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { makeKeychain, makeTags } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { makeTransfer, transferWorld } from '../../../tests/server/transfers.ts'
import { keys, memberships } from '../../db/schema.ts'
import { seesAllTransfers } from './scan.ts'

const t = setupTestAppAtEpoch()

describe('who sees every open transfer of a keychain at a scan', () => {
  it('the roles that read transfers, not a CONTACT nor someone without a role there', () => {
    expect(seesAllTransfers('ADMIN')).toBe(true)
    expect(seesAllTransfers('MANAGER')).toBe(true)
    expect(seesAllTransfers('MEMBER')).toBe(true)
    expect(seesAllTransfers('CONTACT')).toBe(false)
    expect(seesAllTransfers(null)).toBe(false)
  })
})

describe('scans and transfers', () => {
  const scan = (cookie: string, value: string) =>
    t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': randomUUID() } })

  it('gives a member the keychain’s transfer concerning them: the one out, else the next SCHEDULED', async () => {
    const { organization, admin, member, contact, keychain, tag } = await transferWorld(t)
    expect((await (await scan(member.cookie, tag.code)).json()).transfer).toBeNull()
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-20',
      toDate: '2030-01-21',
    })
    const sooner = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: admin.id,
      fromDate: '2030-01-17',
      toDate: '2030-01-18',
    })
    expect((await (await scan(member.cookie, tag.code)).json()).transfer).toMatchObject({
      id: sooner.id,
      next: null,
      refusal: 'not_recipient',
    })
    const out = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-14',
      toDate: '2030-01-16',
      status: 'TRANSFERRED',
    })
    expect((await (await scan(member.cookie, tag.code)).json()).transfer).toMatchObject({
      id: out.id,
      next: 'RETURN',
    })
  })

  it('resolves for a CONTACT only the tags of keychains with an open transfer addressed to them', async () => {
    const { organization, admin, contact, keychain, tag } = await transferWorld(t)
    expect((await (await scan(contact.cookie, tag.publicId)).json()).status).toBe('foreign')
    const theirs = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-16',
      toDate: '2030-01-17',
    })
    expect(await (await scan(contact.cookie, tag.publicId)).json()).toMatchObject({
      status: 'resolved',
      actions: ['pickup__transfer'],
      keychain: { id: keychain.id, custodian: null },
      transfer: { id: theirs.id, next: null, refusal: 'before_window' },
    })
    // Another keychain's tag, with a transfer to someone else: still foreign.
    const [loose] = await makeTags(t, organization.id, 1, 'LSE')
    const other = await makeKeychain(t, organization.id, 'Other')
    await t.db
      .insert(keys)
      .values({ keychainId: other.id, name: 'K', type: 'TAG', tagId: loose!.id, createdAt: t.clock.now() })
    await makeTransfer(t, { organizationId: organization.id, keychainId: other.id, recipientId: admin.id })
    expect((await (await scan(contact.cookie, loose!.publicId)).json()).status).toBe('foreign')
    // Cancelled: foreign again.
    await t.delete(`/api/transfers/${theirs.id}`, { cookie: admin.cookie })
    expect((await (await scan(contact.cookie, tag.publicId)).json()).status).toBe('foreign')
  })

  it('resolves for a recipient the tag of another of their organizations, with their role there', async () => {
    const lender = await transferWorld(t, { name: 'Lender' })
    const home = await transferWorld(t, { name: 'Home' })
    await t.db.insert(memberships).values({
      userId: home.member.id,
      organizationId: lender.organization.id,
      role: 'CONTACT',
      status: 'ACTIVE',
      createdAt: t.clock.now(),
    })
    const lent = await makeTransfer(t, {
      organizationId: lender.organization.id,
      keychainId: lender.keychain.id,
      recipientId: home.member.id,
    })
    // Home stays selected: its tags resolve as before, the lender's because of the transfer.
    expect(await (await scan(home.member.cookie, lender.tag.publicId)).json()).toMatchObject({
      status: 'resolved',
      actions: ['pickup__transfer'],
      transfer: { id: lent.id, next: 'PICKUP' },
    })
    expect((await (await scan(home.member.cookie, lender.tag.code)).json()).status).toBe('unknown')
  })
})
