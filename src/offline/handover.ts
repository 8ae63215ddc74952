import { ErrorCode } from '../../contract/errors.ts'
import {
  checkSigner,
  HANDOVER_OFFER_MAX_AGE_MS,
  HANDOVER_REFUSALS,
  type HandoverRefusal,
} from '../../contract/handover-check.ts'
import {
  acceptanceText,
  formatReceiveCode,
  freshNonce,
  type HandoverOffer,
  offerIdOf,
  offerText,
  parseAcceptance,
  parseOffer,
  parseReceiveCode,
  signedCode,
  signText,
} from '../../contract/handover-codes.ts'
import type { Person } from '../../contract/person.ts'
import {
  type CustodyBefore,
  type HandoverRow,
  type MirroredDeviceKeyRow,
  type OutboxItem,
  type PendingOfferRow,
  type TrousseauDb,
  withDb,
} from './db.ts'
import { type DeviceIdentity, ensureDeviceKey as ensureKey, signingKey } from './device-key.ts'
import { sendOnce } from './field.ts'
import { enqueue, inFlight, type SendOutcome } from './outbox.ts'

export type { DeviceIdentity }

/**
 * This device's identity for a user, made on first call (key pair: ECDSA P-256, private key not extractable, in
 * IndexedDB) and registered with `POST /devices` when online (retried on each app start and sync until done).
 */
export const ensureDeviceKey = (userId: string): Promise<DeviceIdentity> => ensureKey(userId)

/** A handover this device took part in, as its screens show it: its state is 'queued' until the server answers. */
export type LocalHandover = Omit<HandoverRow, 'userId' | 'itemId' | 'before'>

/**
 * Why this phone refuses, before any server: the contract's `HANDOVER_REFUSALS` (decided as the server would
 * from the mirror: `malformed`, `unknown_device`, `bad_signature`, `conflict`…) plus the phone's own:
 * `not_a_receive_code` (what was scanned or typed is none), `device_not_ready` (this device has no registered,
 * valid key for the user), `not_for_this_device` (an offer made for another device, person, organization or
 * receive code than this device's pending one), `no_pending_offer` (an acceptance scanned while this device
 * offered nothing), `not_holder` (the mirror does not show the user holding the keychain), `keychain_unknown`
 * (not in the mirror).
 */
export type LocalRefusal =
  | HandoverRefusal
  | 'not_a_receive_code'
  | 'device_not_ready'
  | 'not_for_this_device'
  | 'no_pending_offer'
  | 'not_holder'
  | 'keychain_unknown'

type Refused = { ok: false; reason: LocalRefusal }
const refused = (reason: LocalRefusal): Refused => ({ ok: false, reason })

const receivingKey = (userId: string) => `handover-receiving:${userId}`
type Receiving = { organizationId: string; nonce: string }

const iso = (ms: number) => new Date(ms).toISOString()

const asLocal = (row: HandoverRow): LocalHandover => {
  const { userId: _userId, itemId: _itemId, before: _before, ...shown } = row
  return shown
}

const asPerson = ({ id, email, firstName, lastName }: Person): Person => ({ id, email, firstName, lastName })

/** A device key of the organization from the mirror. */
async function mirroredKey(
  db: TrousseauDb,
  organizationId: string,
  deviceId: string,
): Promise<MirroredDeviceKeyRow | undefined> {
  const key = await db.deviceKeys.get(deviceId)
  return key?.organizationId === organizationId ? key : undefined
}

/** The signed-in user as the mirror knows them: their profile, else their own key's entry. */
async function personOf(db: TrousseauDb, userId: string): Promise<Person> {
  const profile = await db.profile.get(userId)
  if (profile) return asPerson(profile)
  const key = await db.deviceKeys.filter((each) => each.userId === userId).first()
  return key ? asPerson(key.person) : { id: userId, email: '', firstName: '', lastName: '' }
}

type KnownKeychain = {
  id: string
  name: string
  custodian: Person | null
  custodySeq: number
  onTransfer: boolean
}

/**
 * The keychain as the mirror shows it: its row (one made by a pairing still waiting has no id the server
 * knows), or, for someone who does not read keychains, a transfer of it addressed to them.
 */
async function knownKeychain(
  db: TrousseauDb,
  organizationId: string,
  keychainId: string,
): Promise<KnownKeychain | undefined> {
  const row = await db.keychains.get(keychainId)
  const transfers = await db.transfers.where('keychainId').equals(keychainId).toArray()
  const lent = transfers.some((each) => each.status === 'TRANSFERRED' || each.status === 'RETURNING')
  if (row && row.organizationId === organizationId && !row.waiting) {
    const shown = row.detail ?? row.summary
    if (shown)
      return {
        id: keychainId,
        name: shown.name,
        custodian: shown.custodian,
        custodySeq: row.detail?.custodySeq ?? 0,
        onTransfer: lent || shown.status === 'OUT' || shown.status === 'OVERDUE',
      }
  }
  const transfer = transfers.find((each) => each.organizationId === organizationId)
  return transfer
    ? { id: keychainId, name: transfer.keychain.name, custodian: null, custodySeq: 0, onTransfer: lent }
    : undefined
}

/** Shows `receiver` holding the keychain in the mirror at once; answers what it showed before. */
async function showHandedOver(
  db: TrousseauDb,
  keychainId: string,
  receiver: Person,
): Promise<CustodyBefore | null> {
  const row = await db.keychains.get(keychainId)
  if (!row) return null
  const shown = row.detail ?? row.summary
  if (!shown) return null
  const before: CustodyBefore = {
    custodian: shown.custodian,
    status: shown.status,
    whereabouts: row.summary?.whereabouts,
  }
  const status = shown.status === 'FREE' ? 'HELD' : shown.status
  await db.keychains.put({
    ...row,
    detail: row.detail && { ...row.detail, custodian: receiver, status },
    // In someone's hands: off its hook, as when someone takes it.
    summary: row.summary && { ...row.summary, custodian: receiver, status, whereabouts: 'HELD' },
  })
  return before
}

/** A refused handover: the mirror shows the keychain as before, unless something else has changed it since. */
async function putBack(db: TrousseauDb, handover: HandoverRow): Promise<void> {
  const { before } = handover
  const row = await db.keychains.get(handover.keychain.id)
  if (!before || !row) return
  const shown = row.detail ?? row.summary
  if (shown?.custodian?.id !== handover.receiver.id) return
  await db.keychains.put({
    ...row,
    detail: row.detail && { ...row.detail, custodian: before.custodian, status: before.status },
    summary: row.summary && {
      ...row.summary,
      custodian: before.custodian,
      status: before.status,
      whereabouts: before.whereabouts,
    },
  })
}

/**
 * Keeps a handover on this device in one write: its record, the outbox item that sends it (its id the
 * Idempotency-Key), the mirror showing the receiver, and `done` (the pending code or offer used up). A handover
 * this user already has is answered as it is: the same pair is never queued twice.
 */
async function keep(
  row: Omit<HandoverRow, 'itemId' | 'before'>,
  done: (db: TrousseauDb) => Promise<unknown>,
): Promise<{ handover: HandoverRow; item: OutboxItem | null }> {
  const id = crypto.randomUUID()
  try {
    return await withDb((db) =>
      db.transaction('rw', [db.handovers, db.outbox, db.meta, db.keychains, db.pendingOffers], async () => {
        const kept = await db.handovers.get([row.userId, row.offerId])
        if (kept) return { handover: kept, item: null }
        const item = await enqueue({
          kind: 'handover',
          userId: row.userId,
          organizationId: row.organizationId,
          value: row.offerId,
          label: row.keychain.name,
          handover: {
            keychainId: row.keychain.id,
            handover: { offer: row.offerCode, acceptance: row.acceptanceCode },
          },
          claim: true,
          id,
        })
        const before = await showHandedOver(db, row.keychain.id, row.receiver)
        const handover: HandoverRow = { ...row, itemId: item.id, before }
        await db.handovers.add(handover)
        await done(db)
        return { handover, item }
      }),
    )
  } catch (error) {
    inFlight.delete(id)
    throw error
  }
}

/**
 * The server's answer to a handover, at once or replayed by the outbox: applied, or refused (the mirror shows the
 * keychain as before). A `handover_refused` is final: its item leaves the outbox (the record keeps the reason);
 * another refusal stays in the sync panel. No answer changes nothing.
 */
export async function settleHandover(item: OutboxItem, outcome: SendOutcome): Promise<void> {
  if (outcome.kind !== 'sent' && outcome.kind !== 'refused') return
  await withDb((db) =>
    db.transaction('rw', [db.handovers, db.keychains, db.outbox], async () => {
      const handover = await db.handovers.get([item.userId, item.value])
      if (outcome.kind === 'sent') {
        if (handover) await db.handovers.put({ ...handover, state: 'APPLIED', reason: null })
        return
      }
      if (outcome.code === ErrorCode.handoverRefused) await db.outbox.delete(item.id)
      if (!handover) return
      const reason = HANDOVER_REFUSALS.find((each) => each === outcome.reason) ?? null
      await db.handovers.put({ ...handover, state: 'REFUSED', reason })
      if (handover.state === 'queued') await putBack(db, handover)
    }),
  )
}

/** The first try, in the background: the codes show at once, whatever the network does. */
function sendNow(item: OutboxItem | null): void {
  if (!item) return
  void sendOnce(item)
    .then((outcome) => settleHandover(item, outcome))
    .catch((error: unknown) => console.warn('Handover send failed', error))
}

/** Receiver, step 1: a fresh receive code, kept as the one pending on this device until used or replaced. */
export async function startReceiving(userId: string, organizationId: string): Promise<{ code: string }> {
  const { fingerprint } = await ensureKey(userId)
  const receiving: Receiving = { organizationId, nonce: freshNonce() }
  await withDb((db) => db.meta.put({ key: receivingKey(userId), value: JSON.stringify(receiving) }))
  return { code: formatReceiveCode({ fingerprint, nonce: receiving.nonce }) }
}

/**
 * Giver, step 1: after scanning or typing the receive code. Checks it against the mirror (the keychain held by
 * the user and not out on a transfer, the receiver's device known and valid), signs the offer and keeps it
 * pending until its acceptance is scanned.
 */
export async function makeOffer(input: {
  userId: string
  organizationId: string
  keychainId: string
  receiveCode: string
}): Promise<{ ok: true; offerCode: string; offerId: string; receiver: Person } | Refused> {
  const { userId, organizationId } = input
  const code = parseReceiveCode(input.receiveCode)
  if (!code) return refused('not_a_receive_code')
  const at = Date.now()
  return withDb(async (db) => {
    const key = await signingKey(db, userId, at)
    if (!key) return refused('device_not_ready')
    const keychain = await knownKeychain(db, organizationId, input.keychainId)
    if (!keychain) return refused('keychain_unknown')
    if (keychain.custodian?.id !== userId) return refused('not_holder')
    if (keychain.onTransfer) return refused('on_transfer')
    const candidates = await db.deviceKeys
      .filter((each) => each.organizationId === organizationId && each.fingerprint === code.fingerprint)
      .toArray()
    const device = candidates.find((each) => each.revokedAt === null) ?? candidates[0]
    if (!device) return refused('unknown_device')
    if (device.userId === userId) return refused('same_person')
    if (device.revokedAt !== null) return refused('device_revoked')
    if (Date.parse(device.expiresAt) <= at) return refused('key_expired')
    const offer: HandoverOffer = {
      organizationId,
      keychainId: keychain.id,
      giverId: userId,
      giverDeviceId: key.deviceId,
      receiverId: device.userId,
      receiverDeviceId: device.id,
      receiverNonce: code.nonce,
      giverNonce: freshNonce(),
      base: keychain.custodySeq,
      at,
    }
    const text = offerText(offer)
    const offerCode = signedCode(text, await signText(key.privateKey, text))
    const offerId = await offerIdOf(text)
    const receiver = asPerson(device.person)
    const pending: PendingOfferRow = {
      offerId,
      userId,
      organizationId,
      offerCode,
      offer,
      keychain: { id: keychain.id, name: keychain.name },
      giver: await personOf(db, userId),
      receiver,
      madeAt: iso(at),
    }
    await db.transaction('rw', db.pendingOffers, async () => {
      // An offer never accepted would be refused by the server by now: it waits for nothing.
      await db.pendingOffers.filter((each) => each.madeAt < iso(at - HANDOVER_OFFER_MAX_AGE_MS)).delete()
      await db.pendingOffers.put(pending)
    })
    return { ok: true as const, offerCode, offerId, receiver }
  })
}

/**
 * Receiver, step 2: after scanning the offer. Checks it (for this device and its pending receive code, signed by
 * the giver's valid key from the mirror, a keychain the mirror knows with no later custody change than the
 * offer's base), signs the acceptance, queues the pair, shows the user holding the keychain and keeps the record.
 */
export async function acceptOffer(input: {
  userId: string
  organizationId: string
  offerCode: string
}): Promise<{ ok: true; acceptanceCode: string; handover: LocalHandover } | Refused> {
  const { userId, organizationId } = input
  const offer = parseOffer(input.offerCode.trim())
  if (!offer) return refused('malformed')
  const offerId = await offerIdOf(offer.text)
  const { value } = offer
  const checked = await withDb(async (db) => {
    const kept = await db.handovers.get([userId, offerId])
    if (kept) return { kept, row: null }
    const at = Date.now()
    const key = await signingKey(db, userId, at)
    if (!key) return refused('device_not_ready')
    const entry = await db.meta.get(receivingKey(userId))
    const receiving = entry ? (JSON.parse(entry.value) as Receiving) : null
    const forMe =
      value.organizationId === organizationId &&
      value.receiverId === userId &&
      value.receiverDeviceId === key.deviceId &&
      receiving?.organizationId === organizationId &&
      receiving.nonce === value.receiverNonce
    if (!forMe) return refused('not_for_this_device')
    if (value.giverId === userId) return refused('same_person')
    const giverKey = await mirroredKey(db, organizationId, value.giverDeviceId)
    // Stryker disable next-line ConditionalExpression: checkSigner refuses a missing key the same way
    if (!giverKey) return refused('unknown_device')
    const signer = await checkSigner(giverKey, value.giverId, value.at, offer)
    if (signer) return refused(signer)
    const keychain = await knownKeychain(db, organizationId, value.keychainId)
    if (!keychain) return refused('keychain_unknown')
    if (keychain.custodySeq > value.base) return refused('conflict')
    const text = acceptanceText({ offerId, receiverDeviceId: key.deviceId, at })
    const row: Omit<HandoverRow, 'itemId' | 'before'> = {
      userId,
      offerId,
      role: 'receiver',
      organizationId,
      keychain: { id: keychain.id, name: keychain.name },
      giver: asPerson(giverKey.person),
      receiver: await personOf(db, userId),
      offerCode: input.offerCode.trim(),
      acceptanceCode: signedCode(text, await signText(key.privateKey, text)),
      offeredAt: iso(value.at),
      acceptedAt: iso(at),
      state: 'queued',
      reason: null,
    }
    return { kept: null, row }
  })
  if ('ok' in checked) return checked
  if (checked.kept)
    return { ok: true, acceptanceCode: checked.kept.acceptanceCode, handover: asLocal(checked.kept) }
  const { handover, item } = await keep(checked.row, (db) => db.meta.delete(receivingKey(userId)))
  sendNow(item)
  return { ok: true, acceptanceCode: handover.acceptanceCode, handover: asLocal(handover) }
}

/**
 * Giver, step 2: after scanning the acceptance. Checks it against this device's pending offers and the
 * receiver's key from the mirror, queues the pair, shows the receiver holding the keychain, keeps the record.
 */
export async function completeOffer(input: {
  userId: string
  organizationId: string
  acceptanceCode: string
}): Promise<{ ok: true; handover: LocalHandover } | Refused> {
  const { userId, organizationId } = input
  const acceptance = parseAcceptance(input.acceptanceCode.trim())
  if (!acceptance) return refused('malformed')
  const { offerId } = acceptance.value
  const checked = await withDb(async (db) => {
    const kept = await db.handovers.get([userId, offerId])
    if (kept) return { kept, row: null }
    const offers = await db.pendingOffers
      .where('userId')
      .equals(userId)
      .filter((each) => each.organizationId === organizationId)
      .toArray()
    if (offers.length === 0) return refused('no_pending_offer')
    const pending = offers.find((each) => each.offerId === offerId)
    if (!pending || acceptance.value.receiverDeviceId !== pending.offer.receiverDeviceId)
      return refused('not_for_this_offer')
    const { offer } = pending
    const receiverKey = await mirroredKey(db, organizationId, offer.receiverDeviceId)
    const signer = await checkSigner(receiverKey, offer.receiverId, offer.at, acceptance)
    if (signer) return refused(signer)
    const row: Omit<HandoverRow, 'itemId' | 'before'> = {
      userId,
      offerId,
      role: 'giver',
      organizationId,
      keychain: pending.keychain,
      giver: pending.giver,
      receiver: pending.receiver,
      offerCode: pending.offerCode,
      acceptanceCode: input.acceptanceCode.trim(),
      offeredAt: iso(offer.at),
      acceptedAt: iso(acceptance.value.at),
      state: 'queued',
      reason: null,
    }
    return { kept: null, row }
  })
  if ('ok' in checked) return checked
  if (checked.kept) return { ok: true, handover: asLocal(checked.kept) }
  const { handover, item } = await keep(checked.row, (db) => db.pendingOffers.delete(offerId))
  sendNow(item)
  return { ok: true, handover: asLocal(handover) }
}

/** The handovers this device took part in for the user in the organization, newest first. */
export async function localHandovers(userId: string, organizationId: string): Promise<LocalHandover[]> {
  const rows = await withDb((db) =>
    db.handovers
      .where('userId')
      .equals(userId)
      .filter((row) => row.organizationId === organizationId)
      .toArray(),
  )
  return rows.sort((a, b) => b.acceptedAt.localeCompare(a.acceptedAt)).map(asLocal)
}

/** One handover of this device, by the offer's id. */
export async function localHandover(offerId: string): Promise<LocalHandover | undefined> {
  const row = await withDb((db) => db.handovers.where('offerId').equals(offerId).first())
  return row && asLocal(row)
}
