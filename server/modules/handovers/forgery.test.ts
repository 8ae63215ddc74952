import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { DEVICE_KEY_LIFETIME_MS, HANDOVER_OFFER_MAX_AGE_MS } from '../../../contract/handover-check.ts'
import { acceptanceText, offerIdOf, signedCode, signText } from '../../../contract/handover-codes.ts'
import { DAY, MINUTE } from '../../../tests/server/clock.ts'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import {
  handoverWorld,
  makeDevice,
  refusalOf,
  registeredDevice,
  signedPair,
  submitPair,
} from '../../../tests/server/handovers.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { handovers, keychains, organizationEvents } from '../../db/schema.ts'

const t = setupTestAppAtEpoch()

type World = Awaited<ReturnType<typeof handoverWorld>>

/** Nothing was kept, logged or moved: a refusal of the codes or the keys leaves no trace. */
async function untouched(w: World) {
  expect(await t.db.$count(handovers, eq(handovers.organizationId, w.organization.id))).toBe(0)
  const kinds = (
    await t.db
      .select({ kind: organizationEvents.kind })
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, w.organization.id))
  ).map((event) => event.kind)
  expect(kinds.filter((kind) => kind.includes('hand'))).toEqual([])
  const [keychain] = await t.db.select().from(keychains).where(eq(keychains.id, w.keychain.id))
  expect(keychain!.custodianId).toBe(w.giver.id)
}

const pairOf = (w: World, extra: Partial<Parameters<typeof signedPair>[1]> = {}) =>
  signedPair(t, {
    organizationId: w.organization.id,
    keychainId: w.keychain.id,
    giver: w.giverPhone,
    receiver: w.receiverPhone,
    ...extra,
  })

describe('codes that are not a genuine pair', () => {
  it('refuses what is no offer or acceptance (`malformed`), keeping nothing', async () => {
    const w = await handoverWorld(t)
    const pair = await pairOf(w)
    for (const [offer, acceptance] of [
      ['hello', pair.acceptance],
      [pair.offer, 'hello'],
      [pair.offer.toLowerCase(), pair.acceptance],
      [` ${pair.offer}`, pair.acceptance],
      [pair.offer, `${pair.acceptance}|`],
    ]) {
      expect(await refusalOf(await submitPair(t, w.giver, { offer: offer!, acceptance: acceptance! }))).toBe(
        'malformed',
      )
    }
    expect((await submitPair(t, w.giver, { offer: 'x'.repeat(1001), acceptance: '' })).status).toBe(400)
    await untouched(w)
  })

  it('refuses every offer with one character changed, whatever the character', async () => {
    const w = await handoverWorld(t)
    const pair = await pairOf(w)
    const reasons = new Set<string>()
    for (let index = 0; index < pair.offer.length; index += 1) {
      const character = pair.offer[index]!
      const changed = character === 'A' ? 'B' : character === '1' ? '2' : 'A'
      const offer = pair.offer.slice(0, index) + changed + pair.offer.slice(index + 1)
      const answer = await submitPair(t, w.giver, { offer, acceptance: pair.acceptance })
      // Naming another organization or other people is a 404 or a 403; anything else a refusal.
      expect([403, 404, 409], `${index}: ${offer}`).toContain(answer.status)
      if (answer.status === 409) reasons.add(await refusalOf(answer))
    }
    expect([...reasons].sort()).toEqual(['bad_signature', 'malformed', 'not_for_this_offer'])
    await untouched(w)
  })

  it('refuses an altered offer the receiver accepted as it reads: the giver never signed it (`bad_signature`)', async () => {
    const w = await handoverWorld(t)
    const pair = await pairOf(w)
    const [text, signature] = [
      pair.offer.slice(0, pair.offer.lastIndexOf('|')),
      pair.offer.split('|').at(-1)!,
    ]
    const altered = text.replace(`|${pair.value.at}`, `|${pair.value.at + 1}`)
    const offerId = await offerIdOf(altered)
    const accepted = acceptanceText({ offerId, receiverDeviceId: w.receiverPhone.id, at: pair.value.at })
    const acceptance = signedCode(accepted, await signText(w.receiverPhone.privateKey, accepted))
    const answer = await submitPair(t, w.receiver, { offer: signedCode(altered, signature), acceptance })
    expect(await refusalOf(answer)).toBe('bad_signature')
    // Signed by the receiver's device in the giver's name: not the giver's device.
    const forged = await pairOf(w, { offerSigner: w.receiverPhone })
    expect(await refusalOf(await submitPair(t, w.receiver, forged))).toBe('bad_signature')
    const unaccepted = await pairOf(w, { acceptanceSigner: w.giverPhone })
    expect(await refusalOf(await submitPair(t, w.giver, unaccepted))).toBe('bad_signature')
    await untouched(w)
  })

  it('refuses an acceptance of another offer (`not_for_this_offer`)', async () => {
    const w = await handoverWorld(t)
    const one = await pairOf(w)
    const other = await pairOf(w)
    const answer = await submitPair(t, w.giver, { offer: one.offer, acceptance: other.acceptance })
    expect(await refusalOf(answer)).toBe('not_for_this_offer')
    await untouched(w)
  })

  it('refuses a key registered to someone else (`wrong_device`), one never registered (`unknown_device`), one person twice', async () => {
    const w = await handoverWorld(t)
    const colleague = await signedInMember(t, w.organization.id, 'MEMBER')
    const colleaguePhone = await registeredDevice(t, colleague)
    // The giver's name, signed by the colleague's registered phone.
    const borrowed = await pairOf(w, { giver: { ...colleaguePhone, userId: w.giver.id } })
    expect(await refusalOf(await submitPair(t, w.giver, borrowed))).toBe('wrong_device')
    const lent = await pairOf(w, { receiver: { ...colleaguePhone, userId: w.receiver.id } })
    expect(await refusalOf(await submitPair(t, w.receiver, lent))).toBe('wrong_device')
    const unregistered = await pairOf(w, { receiver: await makeDevice(w.receiver) })
    expect(await refusalOf(await submitPair(t, w.giver, unregistered))).toBe('unknown_device')
    const secondPhone = await registeredDevice(t, w.giver, 'Tablet')
    const toSelf = await pairOf(w, { receiver: secondPhone })
    expect(await refusalOf(await submitPair(t, w.giver, toSelf))).toBe('same_person')
    await untouched(w)
  })
})

describe('device keys in time', () => {
  it('refuses an offer made after its device was revoked; one made before still applies', async () => {
    const w = await handoverWorld(t)
    const before = await pairOf(w)
    t.clock.advance(MINUTE)
    expect((await t.delete(`/api/devices/${w.giverPhone.id}`, { cookie: w.giver.cookie })).status).toBe(204)
    const after = await pairOf(w)
    expect(await refusalOf(await submitPair(t, w.receiver, after))).toBe('device_revoked')
    // At the very instant of the revocation: revoked.
    const atRevocation = await pairOf(w, { at: t.clock.now().getTime() })
    expect(await refusalOf(await submitPair(t, w.receiver, atRevocation))).toBe('device_revoked')
    await untouched(w)
    t.clock.advance(MINUTE)
    expect((await submitPair(t, w.receiver, before)).status).toBe(201)
    const [moved] = await t.db.select().from(keychains).where(eq(keychains.id, w.keychain.id))
    expect(moved!.custodianId).toBe(w.receiver.id)
  })

  it('refuses a signature by an expired key (`key_expired`)', async () => {
    const w = await handoverWorld(t)
    t.clock.advance(DEVICE_KEY_LIFETIME_MS + DAY)
    // The sessions ended meanwhile: signed in again, the phones kept their old keys.
    const giver = { ...w.giver, cookie: (await t.signIn(w.giver.email)).cookie }
    expect(await refusalOf(await submitPair(t, giver, await pairOf(w)))).toBe('key_expired')
    const atExpiry = await pairOf(w, { at: new Date(w.giverPhone.device.expiresAt).getTime() })
    expect(await refusalOf(await submitPair(t, giver, atExpiry))).toBe('key_expired')
    await untouched(w)
    // Signed the millisecond before, sent a day later: the key was valid when it signed.
    const justBefore = await pairOf(w, { at: new Date(w.giverPhone.device.expiresAt).getTime() - 1 })
    expect((await submitPair(t, giver, justBefore)).status).toBe(201)
  })

  it('refuses an offer dated more than 10 minutes ahead (`clock_ahead`) or more than 30 days old (`expired`)', async () => {
    const w = await handoverWorld(t)
    const now = t.clock.now().getTime()
    expect(await refusalOf(await submitPair(t, w.giver, await pairOf(w, { at: now + 11 * MINUTE })))).toBe(
      'clock_ahead',
    )
    const old = await pairOf(w, { at: now - HANDOVER_OFFER_MAX_AGE_MS - MINUTE })
    expect(await refusalOf(await submitPair(t, w.giver, old))).toBe('expired')
    const farAcceptance = await pairOf(w, { acceptedAt: 9_000_000_000_000_000 })
    expect(await refusalOf(await submitPair(t, w.giver, farAcceptance))).toBe('malformed')
    await untouched(w)
    // Nine minutes ahead is within two phones' drift: applied, dated no later than the server's now.
    const ahead = await submitPair(t, w.giver, await pairOf(w, { at: now + 9 * MINUTE }))
    expect(ahead.status).toBe(201)
    expect((await ahead.json()).offeredAt).toBe(new Date(now + 9 * MINUTE).toISOString())
  })
})
