// What a receipt records of its pickup, who handed the keychain over, who is mailed, and who reads it.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { SIGNATURE, TINY_JPEG } from '../../../tests/server/receipt-pdf-fixture.ts'
import { scheduledTransfer } from '../../../tests/server/transfers.ts'
import { keychains, memberships, organizationEvents, transferReceipts, transfers } from '../../db/schema.ts'
import { checkedAcceptance } from './service.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

const accept = (
  cookie: string,
  transferId: string,
  acceptance: unknown,
  headers: Record<string, string> = {},
) =>
  t.post(`/api/transfers/${transferId}/pickups`, {
    cookie,
    json: { acceptance },
    headers: { 'idempotency-key': randomUUID(), ...headers },
  })
const receiptOf = async (transferId: string) =>
  (await t.db.select().from(transferReceipts).where(eq(transferReceipts.transferId, transferId)))[0]!
const receiptMails = (email: string) => t.mail.to(email).filter((mail) => mail.attachments?.length)

describe('checkedAcceptance()', () => {
  it('trims the typed name, keeps none for a blank one, and decodes the photo only when there is one', () => {
    const decode = (dataUrl: string) => new Uint8Array([dataUrl.length])
    expect(checkedAcceptance({ typedName: '  Zoé  ', signature: 'M0 0' }, decode)).toEqual({
      typedName: 'Zoé',
      signature: 'M0 0',
      photo: null,
    })
    expect(checkedAcceptance({ typedName: '   ', photo: 'abc' }, decode)).toEqual({
      typedName: null,
      signature: null,
      photo: new Uint8Array([3]),
    })
  })
})

describe('a receipt', () => {
  it('records the device’s time and the queue, and logs which parts of the acceptance were given', async () => {
    const w = await scheduledTransfer(t)
    const deviceTime = new Date(t.clock.now().getTime() - 5 * 60 * 1000)
    const response = await accept(
      w.contact.cookie,
      w.transfer.id,
      { typedName: 'Zoé' },
      { 'x-client-time': deviceTime.toISOString(), 'x-from-queue': '1' },
    )
    expect(response.status).toBe(201)
    const row = await receiptOf(w.transfer.id)
    expect(row).toMatchObject({ clientTime: deviceTime, serverTime: t.clock.now(), fromQueue: true })
    const read = await (
      await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie: w.admin.cookie })
    ).json()
    expect(read).toMatchObject({
      id: row.id,
      clientTime: deviceTime.toISOString(),
      serverTime: t.clock.now().toISOString(),
      fromQueue: true,
      typedName: 'Zoé',
      signature: null,
      photo: null,
      keychain: { id: w.keychain.id, name: 'Cave' },
      fromDate: w.transfer.fromDate,
      toDate: w.transfer.toDate,
      recipient: { id: w.contact.id, email: w.contact.email },
      handedOverBy: { id: w.member.id, email: w.member.email },
    })
    const [event] = await t.db
      .select()
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'transfer.receipt_signed'),
        ),
      )
    expect(event).toMatchObject({
      actorId: w.contact.id,
      clientTime: deviceTime,
      serverTime: t.clock.now(),
      fromQueue: true,
      keychainIds: [w.keychain.id],
      transferIds: [w.transfer.id],
      tagIds: [],
      payload: { receiptId: row.id, typedName: true, signature: false, photo: false },
    })
  })

  it('logs a signature and a photo given without a typed name', async () => {
    const w = await scheduledTransfer(t)
    const photo = `data:image/jpeg;base64,${TINY_JPEG}`
    expect((await accept(w.contact.cookie, w.transfer.id, { signature: SIGNATURE, photo })).status).toBe(201)
    const row = await receiptOf(w.transfer.id)
    expect(row).toMatchObject({ typedName: null, signature: SIGNATURE })
    expect(Buffer.from(row.photo!).toString('base64')).toBe(TINY_JPEG)
    const [event] = await t.db
      .select({ payload: organizationEvents.payload })
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'transfer.receipt_signed'),
        ),
      )
    expect(event!.payload).toEqual({ receiptId: row.id, typedName: false, signature: true, photo: true })
  })

  it('names the one who authorized the transfer as giver when nobody held the keychain', async () => {
    const w = await scheduledTransfer(t)
    await t.db.update(keychains).set({ custodianId: null }).where(eq(keychains.id, w.keychain.id))
    await t.db.update(transfers).set({ authorizedById: w.admin.id }).where(eq(transfers.id, w.transfer.id))
    expect((await accept(w.contact.cookie, w.transfer.id, { signature: 'M0 0 L10 10' })).status).toBe(201)
    const row = await receiptOf(w.transfer.id)
    expect(row.handedOverById).toBe(w.admin.id)
    expect(row.details.handedOverBy).toMatchObject({ id: w.admin.id, email: w.admin.email })
    expect(receiptMails(w.admin.email)).toHaveLength(1)
    expect(receiptMails(w.contact.email)).toHaveLength(1)
    expect(receiptMails(w.member.email)).toHaveLength(0)
  })

  it('has no giver when nobody held it nor authorized it, and mails the recipient once when they held it', async () => {
    const w = await scheduledTransfer(t)
    await t.db.update(keychains).set({ custodianId: null }).where(eq(keychains.id, w.keychain.id))
    expect((await accept(w.contact.cookie, w.transfer.id, { typedName: 'Zoé' })).status).toBe(201)
    expect(await receiptOf(w.transfer.id)).toMatchObject({
      handedOverById: null,
      details: { handedOverBy: null },
    })
    expect(receiptMails(w.contact.email)).toHaveLength(1)

    const v = await scheduledTransfer(t)
    await t.db.update(keychains).set({ custodianId: v.contact.id }).where(eq(keychains.id, v.keychain.id))
    expect((await accept(v.contact.cookie, v.transfer.id, { typedName: 'Zoé' })).status).toBe(201)
    expect((await receiptOf(v.transfer.id)).handedOverById).toBe(v.contact.id)
    expect(receiptMails(v.contact.email)).toHaveLength(1)
  })

  it('is no longer read by a party whose membership was disabled, nor by the giver once they left', async () => {
    const w = await scheduledTransfer(t)
    expect((await accept(w.contact.cookie, w.transfer.id, { typedName: 'Zoé' })).status).toBe(201)
    const status = async (cookie: string) =>
      (await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie })).status
    expect(await status(w.member.cookie)).toBe(200)
    for (const party of [w.contact, w.member]) {
      await t.db
        .update(memberships)
        .set({ status: 'DISABLED' })
        .where(and(eq(memberships.userId, party.id), eq(memberships.organizationId, w.organization.id)))
      const response = await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie: party.cookie })
      expect(response.status).toBe(404)
      expect((await response.json()).error.message).toBe('No receipt for this transfer.')
    }
    expect(await status(w.admin.cookie)).toBe(200)
  })

  it('is not there before the pickup, for the organization’s admin either', async () => {
    const w = await scheduledTransfer(t)
    const response = await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie: w.admin.cookie })
    expect(response.status).toBe(404)
    expect((await response.json()).error.message).toBe('No receipt for this transfer.')
  })
})
