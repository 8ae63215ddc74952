import * as v from 'valibot'
import {
  type DeviceKeysFile,
  DeviceKeysFileSchema,
  type HandoverReceipt,
  HandoverReceiptSchema,
  receiptJson,
  receiptStatement,
} from './handover.ts'
import { checkSignedPair } from './handover-check.ts'
import { fromBase64Url } from './handover-codes.ts'

/**
 * A handover receipt checked with the organization's published keys alone (no database, no network): the file is
 * in its one spelling, the server signed what it adds, the offer and the acceptance are signed by devices of the
 * people they name, valid at the offer's time. Used by `npm run verify-handover`.
 */
export type ReceiptCheck =
  | { valid: true; receipt: HandoverReceipt; offeredAt: string }
  | { valid: false; problem: string }

const invalid = (problem: string): ReceiptCheck => ({ valid: false, problem })

function parsed<T>(schema: v.GenericSchema<unknown, T>, text: string): T | null {
  try {
    const result = v.safeParse(schema, JSON.parse(text))
    return result.success ? result.output : null
    // Stryker disable next-line BlockStatement: undefined is refused as null is
  } catch {
    return null
  }
}

async function serverSigned(receipt: HandoverReceipt, server: DeviceKeysFile['server']): Promise<boolean> {
  const publicKey = fromBase64Url(server.publicKey)
  const signature = fromBase64Url(receipt.server.signature)
  if (!publicKey || !signature) return false
  try {
    // Stryker disable next-line BooleanLiteral: a public key is public, extractable or not
    const key = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify'])
    const statement = new TextEncoder().encode(receiptStatement(receipt))
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, statement)
  } catch {
    return false
  }
}

export async function checkReceipt(receiptBytes: Uint8Array, keysText: string): Promise<ReceiptCheck> {
  const keys = parsed(DeviceKeysFileSchema, keysText)
  if (!keys) return invalid('the keys file is not the organization’s published device keys')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(receiptBytes)
  } catch {
    return invalid('the receipt is not UTF-8 text')
  }
  const receipt = parsed(HandoverReceiptSchema, text)
  if (!receipt) return invalid('the receipt is not a handover receipt')
  if (receiptJson(receipt) !== text)
    return invalid('the receipt was changed after it was issued (not as written)')
  if (receipt.organizationId !== keys.organizationId) return invalid('the keys are another organization’s')
  if (receipt.server.keyId !== keys.server.keyId) {
    return invalid(`signed by server key ${receipt.server.keyId}, the keys file has ${keys.server.keyId}`)
  }
  if (!(await serverSigned(receipt, keys.server))) return invalid('the server’s signature does not match')
  const devices = new Map(keys.devices.map((device) => [device.id, device]))
  const pair = await checkSignedPair(receipt.offer, receipt.acceptance, (id) => devices.get(id))
  if (!pair.ok) return invalid(`the handover’s codes do not hold: ${pair.reason}`)
  const offer = pair.value.offer.value
  if (offer.organizationId !== receipt.organizationId) return invalid('the offer is another organization’s')
  if (pair.value.offerId !== receipt.handoverId) return invalid('the handover id is not the offer’s')
  return { valid: true, receipt, offeredAt: new Date(offer.at).toISOString() }
}
