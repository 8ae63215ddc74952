import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { deviceEndpoints } from '../../contract/endpoints/handovers.ts'
import { call } from '../lib/call.ts'

const deviceKeys = {
  list: ['devices'] as const,
}

/** My devices' signing keys, revoked ones included (the profile's list). */
export const devicesQuery = () =>
  queryOptions({
    queryKey: deviceKeys.list,
    queryFn: () => call(deviceEndpoints.list),
  })

/** Revokes one of my devices: it signs no handover from then on (this phone, if it is this one, makes a new key). */
export function useRevokeDevice() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      await call(deviceEndpoints.revoke, { params: { id } })
      // The offline layer loads with the first handover screen, not with the profile.
      await (await import('../offline/device-key.ts')).forgetRevokedDevice(id)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.list }),
  })
}
