import * as v from 'valibot'
import { IdSchema, requiredText } from './common.ts'

// A device's signing key for handovers (its private half never leaves the device): registered, listed and
// revoked from the profile; the sync feed carries the organization's (`MirroredDeviceKeySchema`, contract/sync.ts).

/** A device key's public half as registered: a raw P-256 point, base64url (65 bytes → 87 characters). */
const PublicKeySchema = v.pipe(
  v.string('publicKey is required.'),
  v.regex(/^[A-Za-z0-9_-]{87}$/, 'publicKey must be a raw P-256 public key in base64url (87 characters).'),
)

/** `POST /devices`: this device's id (made by the device) and public key; the name is shown in the profile. */
export const DeviceRegistrationSchema = v.strictObject({
  id: IdSchema,
  publicKey: PublicKeySchema,
  name: requiredText(80, 'Device name is required.', 'Device name is too long.'),
})
export type DeviceRegistration = v.InferInput<typeof DeviceRegistrationSchema>

/** One of my devices, as the profile lists them. */
export const DeviceSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** The short name receive codes carry (`fingerprintOf`). */
  fingerprint: v.string(),
  registeredAt: v.string(),
  expiresAt: v.string(),
  revokedAt: v.nullable(v.string()),
  lastHandoverAt: v.nullable(v.string()),
})
export type Device = v.InferOutput<typeof DeviceSchema>
export const DeviceListSchema = v.object({ data: v.array(DeviceSchema) })
