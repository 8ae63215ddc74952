import { scanEndpoints } from '../../../contract/endpoints/scans.ts'
import type { ScanResult } from '../../../contract/scans.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { idempotentResponse, idempotentWrite } from '../../http/idempotency.ts'
import { withKeychainTags } from '../../shared/transfer-view.ts'
import { noticeLostTagScan } from '../tags/lost.ts'
import { wakeScanLedger } from './ledger.ts'
import { recordScanStatement, resolveScan } from './service.ts'

export function scanRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...scanEndpoints.record,
      summary:
        'Record a scan and resolve its value (tag URL, public id or code); idempotent by Idempotency-Key',
      access: inSelectedOrganization('create__scan'),
      responses: {
        201: { description: 'Recorded (or the stored answer of the same Idempotency-Key)' },
        422: { description: 'Idempotency-Key already used for another request' },
      },
    },
    async (c, { session, organization, headers, body }) => {
      const now = deps.clock.now()
      const ledger: { organizationId: string | null } = { organizationId: null }
      const answer = await idempotentWrite(
        deps.database.db,
        {
          userId: session.user.id,
          key: headers['idempotency-key'],
          request: 'POST /api/scans',
          payload: body,
          now,
        },
        recordScanStatement,
        async () => {
          const resolved = await resolveScan(deps.database.db, {
            userId: session.user.id,
            scope: organization,
            value: body.value,
            clientTime: headers['x-client-time'] ? new Date(headers['x-client-time']) : null,
            fromQueue: headers['x-from-queue'] === '1',
            now,
            publicUrl: deps.config.publicUrl,
          })
          const { result, values, lost } = resolved
          ledger.organizationId = resolved.ledgerOrganizationId
          if (lost) await noticeLostTagScan(deps, { id: lost.tagId }, { retired: lost.retired })
          return { status: 201, body: result, values }
        },
      )
      // Also on a replay: the first answer's process may have stopped between its commit and this wake.
      if (ledger.organizationId) await wakeScanLedger(deps, ledger.organizationId, now)
      return idempotentResponse(c, answer, (body) => storedScan(body as ScanResult))
    },
  )
}

/** A scan answer stored before transfers carried `keychain.tags` gets them empty (`withKeychainTags`). */
function storedScan(result: ScanResult): ScanResult {
  if (result.status !== 'resolved' || !result.transfer) return result
  return { ...result, transfer: withKeychainTags(result.transfer) }
}
