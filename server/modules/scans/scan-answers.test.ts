import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { SCAN_ACTIONS } from '../../../contract/scans.ts'
import { addMember, makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeTransfer, pickup, scheduledTransfer, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, scans } from '../../db/schema.ts'

/** The whole answer of `POST /api/scans` for each kind of caller, and the scan row it records. */
const t = setupTestApp()

const scan = (cookie: string, value: string) =>
  t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': randomUUID() } })

const scanRow = async (id: string) => (await t.db.select().from(scans).where(eq(scans.id, id)))[0]!

const person = (user: { id: string; email: string }) => ({
  id: user.id,
  email: user.email,
  firstName: '',
  lastName: '',
})

describe('a resolved scan', () => {
  it('answers the tag with its key link, the key, the keychain and its custodian, the actions and no transfer', async () => {
    const { organization, member, tag, keychain } = await transferWorld(t)
    const response = await scan(member.cookie, tag.code)
    expect(response.status).toBe(201)
    const body = await response.json()
    const [key] = (await (await t.get(`/api/keychains/${keychain.id}`, { cookie: member.cookie })).json())
      .keys
    const tagRef = { id: tag.id, publicId: tag.publicId, code: tag.code, name: tag.name }
    expect(body).toEqual({
      status: 'resolved',
      scanId: expect.any(String),
      tag: {
        ...tagRef,
        foregroundColor: tag.foregroundColor,
        backgroundColor: tag.backgroundColor,
        url: `${t.config.publicUrl}/tags/${tag.publicId}`,
        key: { id: key.id, name: 'Porte', keychainId: keychain.id, keychainName: 'Cave' },
        createdAt: tag.createdAt.toISOString(),
      },
      key: { id: key.id, name: 'Porte', type: 'TAG', tag: tagRef },
      keychain: { id: keychain.id, name: 'Cave', custodian: person(member) },
      actions: ['read__keychain', 'pickup__transfer'],
      transfer: null,
    })
    expect(await scanRow(body.scanId)).toMatchObject({
      userId: member.id,
      organizationId: organization.id,
      value: tag.code,
      result: 'resolved',
      tagId: tag.id,
      clientTime: null,
      fromQueue: false,
    })
  })

  it('shows whoever holds the keychain to a caller who reads keychains, not only to its holder', async () => {
    const { admin, member, tag } = await transferWorld(t)
    const body = await (await scan(admin.cookie, tag.code)).json()
    expect(body.keychain.custodian).toEqual(person(member))
  })

  it('lists every scan action an ADMIN has, in the order of SCAN_ACTIONS', async () => {
    const { admin, tag } = await transferWorld(t)
    const body = await (await scan(admin.cookie, tag.publicId)).json()
    expect(body.actions).toEqual([...SCAN_ACTIONS])
  })

  it('answers a free tag with its key link null, no key, no keychain', async () => {
    const { organization, member } = await transferWorld(t)
    const [free] = await makeTags(t, organization.id, 1, 'FRE')
    const body = await (await scan(member.cookie, free!.code)).json()
    expect(body).toMatchObject({ status: 'resolved', key: null, keychain: null, transfer: null })
    expect(body.tag.key).toBeNull()
  })
})

describe('a CONTACT’s scan', () => {
  it('resolves the keychain of a transfer addressed to them, hiding its custodian, with the CONTACT’s actions', async () => {
    const { contact, tag, keychain, transfer } = await scheduledTransfer(t)
    const body = await (await scan(contact.cookie, tag.publicId)).json()
    expect(body).toMatchObject({
      status: 'resolved',
      keychain: { id: keychain.id, name: 'Cave', custodian: null },
      actions: ['pickup__transfer'],
      transfer: { id: transfer.id, status: 'SCHEDULED', next: 'PICKUP' },
    })
    expect((await scanRow(body.scanId)).result).toBe('resolved')
  })

  it('answers a keychain nobody holds with no custodian', async () => {
    const { organization, contact, tag, keychain } = await transferWorld(t)
    await t.db.update(keychains).set({ custodianId: null }).where(eq(keychains.id, keychain.id))
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
    })
    const response = await scan(contact.cookie, tag.publicId)
    expect(response.status).toBe(201)
    expect((await response.json()).keychain).toEqual({ id: keychain.id, name: 'Cave', custodian: null })
  })

  it('shows the CONTACT as custodian once they hold the keychain', async () => {
    const { contact, tag, transfer } = await scheduledTransfer(t)
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    const body = await (await scan(contact.cookie, tag.publicId)).json()
    expect(body).toMatchObject({
      status: 'resolved',
      keychain: { custodian: person(contact) },
      transfer: { id: transfer.id, status: 'TRANSFERRED' },
    })
  })

  it('acts with their role in the tag’s organization, not the one of the organization they have selected', async () => {
    const { organization, keychain, tag } = await transferWorld(t)
    const elsewhere = await organizationWithAdmin(t, 'Ailleurs')
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: elsewhere.admin.id,
    })
    // ADMIN of the organization they have selected, CONTACT of the transfer's.
    await addMember(t, {
      userId: elsewhere.admin.id,
      organizationId: organization.id,
      role: 'CONTACT',
      select: false,
    })
    const body = await (await scan(elsewhere.admin.cookie, tag.publicId)).json()
    expect(body).toMatchObject({
      status: 'resolved',
      keychain: { id: keychain.id, custodian: null },
      actions: ['pickup__transfer'],
      transfer: { id: transfer.id, next: 'PICKUP' },
    })
    expect(await scanRow(body.scanId)).toMatchObject({
      organizationId: elsewhere.organization.id,
      result: 'resolved',
      tagId: tag.id,
    })
  })

  it('answers foreign for a tag of their organization whose keychain has no transfer to them', async () => {
    const { organization, tag } = await transferWorld(t)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const body = await (await scan(contact.cookie, tag.publicId)).json()
    expect(body).toEqual({ status: 'foreign', scanId: expect.any(String), publicId: tag.publicId })
    expect(await scanRow(body.scanId)).toMatchObject({ result: 'foreign', tagId: tag.id })
  })
})

describe('an unknown scan', () => {
  it('answers the value back and records it without a tag', async () => {
    const { member } = await transferWorld(t)
    const body = await (await scan(member.cookie, 'NOPE-12345')).json()
    expect(body).toEqual({ status: 'unknown', scanId: expect.any(String), value: 'NOPE-12345' })
    expect(await scanRow(body.scanId)).toMatchObject({ result: 'unknown', tagId: null, value: 'NOPE-12345' })
  })

  it('answers unknown for a value that is neither a tag URL, a public id nor a code', async () => {
    const { member } = await transferWorld(t)
    const body = await (await scan(member.cookie, 'https://example.test/elsewhere')).json()
    expect(body).toMatchObject({ status: 'unknown', value: 'https://example.test/elsewhere' })
  })
})
