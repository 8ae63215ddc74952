import { SyncPageSchema, SyncQuerySchema } from '../sync.ts'
import { endpoint } from './endpoint.ts'

/** The field mirror's change feed. */
export const syncEndpoints = {
  changes: endpoint({
    method: 'get',
    path: '/sync/changes',
    query: SyncQuerySchema,
    response: SyncPageSchema,
  }),
}
