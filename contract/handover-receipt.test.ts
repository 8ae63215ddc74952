import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keyRecord, makeDevice, signPair, type TestDevice } from '../tests/handover-devices.ts'
import {
  DEVICE_KEYS_FORMAT,
  type DeviceKeysFile,
  type HandoverReceipt,
  RECEIPT_FORMAT,
  receiptJson,
  receiptStatement,
} from './handover.ts'
import type { DeviceKeyRecord } from './handover-check.ts'
import { toBase64Url } from './handover-codes.ts'
import { checkReceipt } from './handover-receipt.ts'

const ORG = '3f1fccc0-67ad-4720-8232-4e67540222b4'
const KEYCHAIN = '10bfd28b-6363-41e7-a4d0-3a3c34d178f1'
const AT = Date.parse('2026-11-29T10:00:00Z')

async function serverKey() {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
  // The server's key id: the first 16 hex digits of the raw public key's SHA-256.
  return {
    pair,
    publicKey: toBase64Url(raw),
    keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16),
  }
}
type ServerKey = Awaited<ReturnType<typeof serverKey>>

async function issued(receipt: Omit<HandoverReceipt, 'server'>, key: ServerKey): Promise<HandoverReceipt> {
  const unsigned = { ...receipt, server: { keyId: key.keyId, signature: '' } }
  const signature = await crypto.subtle.sign(
    { name: 'Ed25519' },
    key.pair.privateKey,
    new TextEncoder().encode(receiptStatement(unsigned)),
  )
  return { ...unsigned, server: { keyId: key.keyId, signature: toBase64Url(new Uint8Array(signature)) } }
}

function keysFile(key: ServerKey, devices: (TestDevice | DeviceKeyRecord)[], organizationId = ORG): string {
  const file: DeviceKeysFile = {
    format: DEVICE_KEYS_FORMAT,
    organizationId,
    server: { keyId: key.keyId, publicKey: key.publicKey },
    devices: devices.map((device) => ({
      ...('privateKey' in device ? keyRecord(device) : device),
      registeredAt: new Date(AT - 1000).toISOString(),
    })),
  }
  return JSON.stringify(file)
}

async function genuine() {
  const key = await serverKey()
  const giver = await makeDevice({ id: crypto.randomUUID() })
  const receiver = await makeDevice({ id: crypto.randomUUID() })
  const pair = await signPair({
    giver,
    receiver,
    organizationId: ORG,
    keychainId: KEYCHAIN,
    base: 7,
    at: AT,
  })
  const receipt = await issued(
    {
      format: RECEIPT_FORMAT,
      organizationId: ORG,
      handoverId: pair.offerId,
      offer: pair.offer,
      acceptance: pair.acceptance,
      record: {
        keychainName: 'Bâtiment B — passe général',
        giverName: 'Paul Martin',
        receiverName: 'Léa Dubois',
        appliedAt: new Date(AT + 60_000).toISOString(),
        eventSeq: 12,
      },
    },
    key,
  )
  const bytes = new TextEncoder().encode(receiptJson(receipt))
  return { key, giver, receiver, pair, receipt, bytes, keys: keysFile(key, [giver, receiver]) }
}

describe('checkReceipt', () => {
  it('holds for a genuine receipt and the organization’s published keys', async () => {
    const { bytes, keys, receipt } = await genuine()
    expect(await checkReceipt(bytes, keys)).toEqual({
      valid: true,
      receipt,
      offeredAt: '2026-11-29T10:00:00.000Z',
    })
  })

  it('refuses every single-byte change to the receipt', async () => {
    const { bytes, keys } = await genuine()
    const accepted: string[] = []
    for (let index = 0; index < bytes.length; index++) {
      for (const replacement of [bytes[index]! ^ 1, bytes[index]! ^ 0x20, 0x20]) {
        if (replacement === bytes[index]) continue
        const copy = bytes.slice()
        copy[index] = replacement
        const check = await checkReceipt(copy, keys)
        if (check.valid) accepted.push(`byte ${index} → ${replacement}`)
      }
    }
    expect(accepted).toEqual([])
  }, 120_000)

  it('says why a receipt does not hold', async () => {
    const { bytes, keys, key, giver, receiver, receipt } = await genuine()
    const problem = async (receiptBytes: Uint8Array, keysText: string) => {
      const check = await checkReceipt(receiptBytes, keysText)
      return check.valid ? null : check.problem
    }
    const encode = (value: HandoverReceipt) => new TextEncoder().encode(receiptJson(value))
    expect(await problem(bytes, '{}')).toBe('the keys file is not the organization’s published device keys')
    expect(await problem(bytes, 'not json')).toBe(
      'the keys file is not the organization’s published device keys',
    )
    expect(await problem(new Uint8Array([0xff, 0xfe]), keys)).toBe('the receipt is not UTF-8 text')
    expect(await problem(new TextEncoder().encode('{"format":1}'), keys)).toBe(
      'the receipt is not a handover receipt',
    )
    expect(await problem(new TextEncoder().encode(JSON.stringify(receipt)), keys)).toBe(
      'the receipt was changed after it was issued (not as written)',
    )
    const otherOrganization = keysFile(key, [giver, receiver], crypto.randomUUID())
    expect(await problem(bytes, otherOrganization)).toBe('the keys are another organization’s')
    const another = await serverKey()
    expect(await problem(bytes, keysFile({ ...another, keyId: key.keyId }, [giver, receiver]))).toBe(
      'the server’s signature does not match',
    )
    // The server's signature holds; the device keys decide.
    const withoutReceiver = keysFile(key, [giver])
    expect(await problem(bytes, withoutReceiver)).toBe('the handover’s codes do not hold: unknown_device')
    const revoked = keyRecord(giver, { revokedAt: new Date(AT) })
    expect(await problem(bytes, keysFile(key, [revoked, receiver]))).toBe(
      'the handover’s codes do not hold: device_revoked',
    )
    const otherId = await issued({ ...receipt, handoverId: 'A'.repeat(43) }, key)
    expect(await problem(encode(otherId), keys)).toBe('the handover id is not the offer’s')
    const otherOrg = crypto.randomUUID()
    const moved = await issued({ ...receipt, organizationId: otherOrg }, key)
    expect(await problem(encode(moved), keysFile(key, [giver, receiver], otherOrg))).toBe(
      'the offer is another organization’s',
    )
  })

  it('names the server key a receipt was signed by when the keys file has another', async () => {
    const { bytes, key, giver, receiver } = await genuine()
    const file = JSON.parse(keysFile(key, [giver, receiver])) as DeviceKeysFile
    const rotated = JSON.stringify({ ...file, server: { ...file.server, keyId: '0'.repeat(16) } })
    expect(await checkReceipt(bytes, rotated)).toEqual({
      valid: false,
      problem: `signed by server key ${key.keyId}, the keys file has ${'0'.repeat(16)}`,
    })
    for (const publicKey of [
      file.server.publicKey.slice(4),
      `${file.server.publicKey.slice(0, -1)}!`,
      'A'.repeat(43),
    ]) {
      const broken = JSON.stringify({ ...file, server: { ...file.server, publicKey } })
      expect(await checkReceipt(bytes, broken)).toEqual({
        valid: false,
        problem: 'the server’s signature does not match',
      })
    }
  })

  it('refuses a server signature of another size or spelling', async () => {
    const { key, giver, receiver, receipt } = await genuine()
    const keys = keysFile(key, [giver, receiver])
    for (const signature of [
      receipt.server.signature.slice(4),
      `${receipt.server.signature.slice(0, -1)}=`,
    ]) {
      const changed = { ...receipt, server: { ...receipt.server, signature } }
      expect(await checkReceipt(new TextEncoder().encode(receiptJson(changed)), keys)).toEqual({
        valid: false,
        problem: 'the server’s signature does not match',
      })
    }
  })
})
