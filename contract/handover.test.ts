import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { DeviceListSchema, DeviceRegistrationSchema } from './devices.ts'
import {
  DEVICE_KEYS_FORMAT,
  DeviceKeysFileSchema,
  HandoverListQuerySchema,
  HandoverPageSchema,
  HandoverParamsSchema,
  type HandoverReceipt,
  HandoverReceiptSchema,
  HandoverSubmitSchema,
  RECEIPT_FORMAT,
  receiptJson,
  receiptStatement,
} from './handover.ts'
import { MirroredDeviceKeySchema } from './sync.ts'

const messages = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input)
  return result.success ? [] : result.issues.map((issue) => issue.message)
}
const KEY = 'B'.repeat(87)
const ID = '3f1fccc0-67ad-4720-8232-4e67540222b4'
const person = { id: ID, email: 'lea@example.com', firstName: 'Léa', lastName: 'Dubois' }

describe('device registration', () => {
  it('takes the device’s id, its raw public key and a name', () => {
    expect(v.parse(DeviceRegistrationSchema, { id: ID, publicKey: KEY, name: ' Chrome · Android ' })).toEqual(
      {
        id: ID,
        publicKey: KEY,
        name: 'Chrome · Android',
      },
    )
  })

  it('says what is wrong', () => {
    const keyMessage = 'publicKey must be a raw P-256 public key in base64url (87 characters).'
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: 'B'.repeat(86), name: 'x' })).toEqual([
      keyMessage,
    ])
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: `${KEY}B`, name: 'x' })).toEqual([
      keyMessage,
    ])
    expect(
      messages(DeviceRegistrationSchema, { id: ID, publicKey: `+${'B'.repeat(86)}`, name: 'x' }),
    ).toEqual([keyMessage])
    expect(
      messages(DeviceRegistrationSchema, { id: ID, publicKey: `${'B'.repeat(86)}=`, name: 'x' }),
    ).toEqual([keyMessage])
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: 7, name: 'x' })).toEqual([
      'publicKey is required.',
    ])
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: KEY, name: ' ' })).toEqual([
      'Device name is required.',
    ])
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: KEY, name: 'x'.repeat(81) })).toEqual([
      'Device name is too long.',
    ])
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: KEY, name: 'x'.repeat(80) })).toEqual([])
    expect(messages(DeviceRegistrationSchema, { id: 'nope', publicKey: KEY, name: 'x' })).toEqual([
      'Malformed id.',
    ])
    expect(messages(DeviceRegistrationSchema, { id: ID, publicKey: KEY, name: 'x', extra: 1 })).toHaveLength(
      1,
    )
  })
})

describe('answers keep every field', () => {
  it('a device, a mirrored key, a handover page', () => {
    const device = {
      id: ID,
      name: 'Chrome',
      fingerprint: 'ABCDEFGH',
      registeredAt: '2026-11-29T10:00:00.000Z',
      expiresAt: '2027-05-28T10:00:00.000Z',
      revokedAt: null,
      lastHandoverAt: null,
    }
    expect(v.parse(DeviceListSchema, { data: [device] })).toEqual({ data: [device] })
    const mirrored = {
      id: ID,
      userId: ID,
      person,
      publicKey: KEY,
      fingerprint: 'ABCDEFGH',
      expiresAt: device.expiresAt,
      revokedAt: null,
    }
    expect(v.parse(MirroredDeviceKeySchema, mirrored)).toEqual(mirrored)
    const handover = {
      id: 'A'.repeat(43),
      status: 'REFUSED',
      reason: 'conflict',
      keychain: { id: ID, name: 'Bâtiment B' },
      giver: person,
      receiver: null,
      giverDeviceId: ID,
      receiverDeviceId: ID,
      offeredAt: device.registeredAt,
      acceptedAt: device.registeredAt,
      receivedAt: device.registeredAt,
      sentBy: person,
    }
    expect(v.parse(HandoverPageSchema, { data: [handover], nextCursor: null })).toEqual({
      data: [handover],
      nextCursor: null,
    })
    expect(
      messages(HandoverPageSchema, { data: [{ ...handover, reason: 'nope' }], nextCursor: null }),
    ).toHaveLength(1)
  })
})

describe('handover requests', () => {
  it('takes the two codes, within their sizes', () => {
    expect(v.parse(HandoverSubmitSchema, { offer: 'o', acceptance: 'a' })).toEqual({
      offer: 'o',
      acceptance: 'a',
    })
    expect(messages(HandoverSubmitSchema, { offer: 'o'.repeat(1001), acceptance: 'a' })).toEqual([
      'offer is too long.',
    ])
    expect(messages(HandoverSubmitSchema, { offer: 'o'.repeat(1000), acceptance: 'a'.repeat(500) })).toEqual(
      [],
    )
    expect(messages(HandoverSubmitSchema, { offer: 'o', acceptance: 'a'.repeat(501) })).toEqual([
      'acceptance is too long.',
    ])
    expect(messages(HandoverSubmitSchema, { offer: 7, acceptance: 'a' })).toEqual(['offer is required.'])
    expect(messages(HandoverSubmitSchema, { offer: 'o', acceptance: null })).toEqual([
      'acceptance is required.',
    ])
  })

  it('reads a handover id and the list’s filter', () => {
    const id = `${'A'.repeat(41)}-_`
    expect(v.parse(HandoverParamsSchema, { id })).toEqual({ id })
    for (const wrong of ['A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}=`, `=${'A'.repeat(42)}`]) {
      expect(messages(HandoverParamsSchema, { id: wrong })).toEqual(['Malformed handover id.'])
    }
    expect(v.parse(HandoverListQuerySchema, { status: 'APPLIED', cursor: 'c' })).toEqual({
      status: 'APPLIED',
      cursor: 'c',
    })
    expect(messages(HandoverListQuerySchema, { status: 'DONE' })).toEqual([
      'status must be APPLIED or REFUSED.',
    ])
  })
})

describe('the receipt and the keys file', () => {
  const receipt: HandoverReceipt = {
    format: RECEIPT_FORMAT,
    organizationId: ID,
    handoverId: 'A'.repeat(43),
    offer: 'TRH1|O|…',
    acceptance: 'TRH1|A|…',
    record: {
      keychainName: 'Bâtiment B',
      giverName: 'Paul Martin',
      receiverName: 'Léa Dubois',
      appliedAt: '2026-11-29T10:01:00.000Z',
      eventSeq: 12,
    },
    server: { keyId: '0123456789abcdef', signature: 'sig' },
  }

  it('has one spelling: fields in order, two-space indent, a final newline', () => {
    const shuffled = { ...receipt, server: { signature: 'sig', keyId: '0123456789abcdef' } }
    const json = receiptJson(shuffled)
    expect(json).toBe(receiptJson(receipt))
    expect(json.endsWith('}\n')).toBe(true)
    expect(json.split('\n').slice(0, 3)).toEqual([
      '{',
      `  "format": "${RECEIPT_FORMAT}",`,
      `  "organizationId": "${ID}",`,
    ])
    expect(Object.keys(JSON.parse(json))).toEqual([
      'format',
      'organizationId',
      'handoverId',
      'offer',
      'acceptance',
      'record',
      'server',
    ])
    expect(Object.keys(JSON.parse(json).record)).toEqual([
      'keychainName',
      'giverName',
      'receiverName',
      'appliedAt',
      'eventSeq',
    ])
    expect(v.parse(HandoverReceiptSchema, JSON.parse(json))).toEqual(receipt)
    expect(RECEIPT_FORMAT).toBe('trousseau-handover-receipt/1')
  })

  it('is signed without its signature, by the key it names', () => {
    const statement = receiptStatement(receipt)
    expect(JSON.parse(statement).server).toEqual({ keyId: '0123456789abcdef', signature: '' })
    expect(statement).toBe(receiptJson({ ...receipt, server: { keyId: '0123456789abcdef', signature: '' } }))
    expect(receiptStatement({ ...receipt, server: { ...receipt.server, signature: 'other' } })).toBe(
      statement,
    )
  })

  it('reads the organization’s published keys', () => {
    const file = {
      format: DEVICE_KEYS_FORMAT,
      organizationId: ID,
      server: { keyId: '0123456789abcdef', publicKey: 'k' },
      devices: [
        {
          id: ID,
          userId: ID,
          publicKey: KEY,
          registeredAt: '2026-11-29T10:00:00.000Z',
          expiresAt: '2027-05-28T10:00:00.000Z',
          revokedAt: '2026-12-01T10:00:00.000Z',
        },
      ],
    }
    expect(v.parse(DeviceKeysFileSchema, file)).toEqual(file)
    expect(DEVICE_KEYS_FORMAT).toBe('trousseau-device-keys/1')
    expect(messages(DeviceKeysFileSchema, { ...file, format: 'other/1' })).toHaveLength(1)
  })
})
