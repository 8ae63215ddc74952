import { DeviceSchema } from '../../../contract/devices.ts'
import { deviceEndpoints } from '../../../contract/endpoints/handovers.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { listDevices, registerDevice, revokeDevice } from './service.ts'

/** A person's device keys belong to that person: a session manages them, never an API token. */
const tokenRefused = '`forbidden`: called with an API token (devices are managed from a session on them)'

/** `/devices`: each signed-in device registers the public half of its signing key; the profile lists and revokes. */
export function deviceRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...deviceEndpoints.list,
      summary:
        "The caller's devices, newest first (revoked and expired ones included), with their last handover",
      access: 'signedIn',
      credentials: 'session',
      responses: { 200: { description: 'The devices' }, 403: { description: tokenRefused } },
    },
    async (c, { session }) => c.json({ data: await listDevices(db, session.user.id) }, 200),
  )

  api.route(
    {
      ...deviceEndpoints.register,
      summary:
        "Register this device's public key (ECDSA P-256, raw, base64url) under an id the device made: it may sign handovers for 180 days",
      access: 'signedIn',
      credentials: 'session',
      responses: {
        200: { description: 'Registered before with this key: the device as it is', schema: DeviceSchema },
        201: { description: 'Registered', schema: DeviceSchema },
        400: { description: '`validation_failed`: no id, a malformed key, no name' },
        403: { description: tokenRefused },
        409: {
          description:
            '`conflict`: the id is registered with another key or to another person, or the caller has 20 active devices already',
        },
      },
    },
    async (c, { session, body }) => {
      const { device, created } = await registerDevice(deps, session.user.id, body)
      return c.json(device, created ? 201 : 200)
    },
  )

  api.route(
    {
      ...deviceEndpoints.revoke,
      summary:
        "Revoke one of the caller's devices: it signs nothing from now on; what it signed before still holds (again: nothing changes)",
      access: 'signedIn',
      credentials: 'session',
      responses: {
        204: { description: 'Revoked' },
        403: { description: tokenRefused },
        404: { description: 'No such device of the caller' },
      },
    },
    async (c, { session, params }) => {
      await revokeDevice(deps, session.user.id, params.id)
      return c.body(null, 204)
    },
  )
}
