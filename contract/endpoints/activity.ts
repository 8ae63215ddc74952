import {
  ActivityPageSchema,
  ActivityQuerySchema,
  ChainCheckSchema,
  LedgerPublicKeySchema,
  SignedHeadSchema,
} from '../activity.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's ledger. */
export const activityEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/activity',
    query: ActivityQuerySchema,
    response: ActivityPageSchema,
  }),
  /** `text/csv`, streamed: the whole filtered view (`limit` and `cursor` are ignored), the signed head last. */
  export: endpoint({ method: 'get', path: '/activity/export', query: ActivityQuerySchema }),
  verification: endpoint({ method: 'get', path: '/activity/verification', response: ChainCheckSchema }),
  head: endpoint({ method: 'get', path: '/activity/head', response: SignedHeadSchema }),
  publicKey: endpoint({ method: 'get', path: '/activity/public-key', response: LedgerPublicKeySchema }),
}
