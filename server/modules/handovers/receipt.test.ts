import { execFile } from 'node:child_process'
import { verify } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { and, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  DEVICE_KEYS_FORMAT,
  type DeviceKeysFile,
  HandoverReceiptSchema,
  RECEIPT_FORMAT,
  receiptJson,
  receiptStatement,
} from '../../../contract/handover.ts'
import { MINUTE } from '../../../tests/server/clock.ts'
import { createOrganization, signedInMember } from '../../../tests/server/fixtures.ts'
import { handoverWorld, registeredDevice, signedPair, submitPair } from '../../../tests/server/handovers.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { organizationEvents, users } from '../../db/schema.ts'
import { fromRoot } from '../../paths.ts'
import { publicKeyFrom } from '../activity/signed-head.ts'

const t = setupTestAppAtEpoch()

async function appliedWorld() {
  const w = await handoverWorld(t)
  const pair = await signedPair(t, {
    organizationId: w.organization.id,
    keychainId: w.keychain.id,
    giver: w.giverPhone,
    receiver: w.receiverPhone,
    at: t.clock.now().getTime() - 5 * MINUTE,
  })
  expect((await submitPair(t, w.receiver, pair)).status).toBe(201)
  return { ...w, pair }
}

describe('GET /api/handovers/{id}/receipt.json', () => {
  it('holds both codes and the record in its one spelling, signed by the ledger key the keys file publishes', async () => {
    const w = await appliedWorld()
    const response = await t.get(`/api/handovers/${w.pair.offerId}/receipt.json`, { cookie: w.giver.cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="handover-${w.pair.offerId}.json"`,
    )
    const text = await response.text()
    const receipt = v.parse(HandoverReceiptSchema, JSON.parse(text))
    expect(text).toBe(receiptJson(receipt))
    const [event] = await t.db
      .select({ seq: organizationEvents.seq })
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'keychain.handed_over'),
        ),
      )
    expect(receipt).toEqual({
      format: RECEIPT_FORMAT,
      organizationId: w.organization.id,
      handoverId: w.pair.offerId,
      offer: w.pair.offer,
      acceptance: w.pair.acceptance,
      record: {
        keychainName: 'Master set',
        giverName: 'Nadia Night',
        receiverName: 'Marc Morning',
        appliedAt: t.clock.now().toISOString(),
        eventSeq: event!.seq,
      },
      server: { keyId: expect.stringMatching(/^[0-9a-f]{16}$/), signature: expect.any(String) },
    })

    const keys = (await (
      await t.get('/api/handovers/keys', { cookie: w.contact.cookie })
    ).json()) as DeviceKeysFile
    expect(keys.server.keyId).toBe(receipt.server.keyId)
    const published = await (await t.get('/api/activity/public-key', { cookie: w.admin.cookie })).json()
    expect(published).toMatchObject({ keyId: keys.server.keyId })
    const signed = (statement: string) =>
      verify(
        null,
        Buffer.from(statement, 'utf8'),
        publicKeyFrom(keys.server.publicKey),
        Buffer.from(receipt.server.signature, 'base64url'),
      )
    expect(signed(receiptStatement(receipt))).toBe(true)
    expect(
      signed(receiptStatement({ ...receipt, record: { ...receipt.record, receiverName: 'Marc Mornin' } })),
    ).toBe(false)

    // Asked again after a rename: the same receipt, byte for byte (names as they were).
    await t.db.update(users).set({ lastName: 'Matin' }).where(eq(users.id, w.receiver.id))
    t.clock.advance(MINUTE)
    const again = await t.get(`/api/handovers/${w.pair.offerId}/receipt.json`, { cookie: w.manager.cookie })
    expect(await again.text()).toBe(text)
  })

  it('is a 404 for a refused handover, for someone who may not see it, for an unknown id', async () => {
    const w = await appliedWorld()
    const other = await signedInMember(t, w.organization.id, 'MEMBER')
    const otherPhone = await registeredDevice(t, other)
    const late = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: otherPhone,
    })
    expect((await submitPair(t, other, late)).status).toBe(409)
    for (const [cookie, id] of [
      [w.giver.cookie, late.offerId],
      [other.cookie, w.pair.offerId],
      [w.contact.cookie, w.pair.offerId],
      [w.admin.cookie, 'A'.repeat(43)],
    ] as const) {
      expect((await t.get(`/api/handovers/${id}/receipt.json`, { cookie })).status, id).toBe(404)
      expect((await t.get(`/api/handovers/${id}/receipt.pdf`, { cookie })).status, id).toBe(404)
    }
  })
})

describe('GET /api/handovers/{id}/receipt.pdf', () => {
  it('is a PDF in the reader’s language', async () => {
    const w = await appliedWorld()
    const response = await t.get(`/api/handovers/${w.pair.offerId}/receipt.pdf`, {
      cookie: w.receiver.cookie,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
  })
})

describe('GET /api/handovers/keys', () => {
  it('publishes every device of the organization’s people, revoked and former members included, none of another’s', async () => {
    const w = await appliedWorld()
    await t.delete(`/api/devices/${w.giverPhone.id}`, { cookie: w.giver.cookie })
    const former = await signedInMember(t, w.organization.id, 'MEMBER', { status: 'DISABLED' })
    const formerPhone = await registeredDevice(t, former)
    const elsewhere = await createOrganization(t, 'Elsewhere')
    const stranger = await signedInMember(t, elsewhere.id, 'ADMIN')
    const strangerPhone = await registeredDevice(t, stranger)
    const response = await t.get('/api/handovers/keys', { cookie: w.receiver.cookie })
    expect(response.status).toBe(200)
    const file = (await response.json()) as DeviceKeysFile
    expect(file).toMatchObject({ format: DEVICE_KEYS_FORMAT, organizationId: w.organization.id })
    const ids = file.devices.map((device) => device.id)
    expect(ids).toEqual(expect.arrayContaining([w.giverPhone.id, w.receiverPhone.id, formerPhone.id]))
    expect(ids).not.toContain(strangerPhone.id)
    expect(file.devices.find((device) => device.id === w.giverPhone.id)).toEqual({
      id: w.giverPhone.id,
      userId: w.giver.id,
      publicKey: w.giverPhone.publicKey,
      registeredAt: w.giverPhone.device.registeredAt,
      expiresAt: w.giverPhone.device.expiresAt,
      revokedAt: t.clock.now().toISOString(),
    })
  })
})

describe('npm run verify-handover', () => {
  it('says valid for the receipt and keys the API gives, even after the giver revoked the phone; a changed byte is not', async () => {
    const w = await appliedWorld()
    const receipt = await (
      await t.get(`/api/handovers/${w.pair.offerId}/receipt.json`, { cookie: w.giver.cookie })
    ).text()
    // Revoked after the handover: the receipt still holds (the offer was made before).
    t.clock.advance(MINUTE)
    await t.delete(`/api/devices/${w.giverPhone.id}`, { cookie: w.giver.cookie })
    const keys = await (await t.get('/api/handovers/keys', { cookie: w.receiver.cookie })).text()
    const directory = await mkdtemp(join(tmpdir(), 'verify-handover-'))
    try {
      await writeFile(join(directory, 'keys.json'), keys)
      const run = async (text: string, ...options: string[]) => {
        await writeFile(join(directory, 'receipt.json'), text)
        const script = fileURLToPath(fromRoot('scripts/verify-handover.ts'))
        return promisify(execFile)(process.execPath, [
          script,
          join(directory, 'receipt.json'),
          ...options,
        ]).then(
          ({ stdout }) => ({ code: 0, stdout }),
          (error: { code: number; stdout: string; stderr: string }) => ({
            code: error.code,
            stdout: error.stdout + error.stderr,
          }),
        )
      }
      const keysOption = ['--keys', join(directory, 'keys.json')]
      expect(await run(receipt, ...keysOption)).toEqual({
        code: 0,
        stdout: expect.stringMatching(
          /^Valid: Nadia Night handed "Master set" to Marc Morning, offered .* \(event \d+, handover .{43}\)\.\n$/,
        ),
      })
      const changed = receipt.replace('Marc Morning', 'Marc Mourning')
      expect(await run(changed, ...keysOption)).toEqual({
        code: 1,
        stdout: 'NOT VALID: the server’s signature does not match\n',
      })
      expect((await run(receipt)).code).toBe(2)
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })
})
