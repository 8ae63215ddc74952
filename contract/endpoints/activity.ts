import { ActivityPageSchema, ActivityQuerySchema, ChainCheckSchema } from '../activity.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's ledger. */
export const activityEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/activity',
    query: ActivityQuerySchema,
    response: ActivityPageSchema,
  }),
  /** `text/csv`, streamed: the whole filtered view (`limit` and `cursor` are ignored). */
  export: endpoint({ method: 'get', path: '/activity/export', query: ActivityQuerySchema }),
  verification: endpoint({ method: 'get', path: '/activity/verification', response: ChainCheckSchema }),
}
