import type { ActivityQuery } from '../../../contract/activity.ts'
import { activityEndpoints } from '../../../contract/endpoints/activity.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { timeZoneOf } from '../subscriptions/service.ts'
import { verifyChain } from './chain.ts'
import { ledgerHead, signedHead } from './head.ts'
import { ledgerKeyOf } from './ledger-key.ts'
import { activityCsv, listActivity } from './list.ts'

/** The organization's ledger: its event log and the verification of its hash chain. */
export function activityRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const signing = { secret: deps.secret, now: () => deps.clock.now() }
  const scopeOf = async (organizationId: string, query: ActivityQuery) => ({
    organizationId,
    timeZone: await timeZoneOf(db, organizationId),
    query,
  })

  api.route(
    {
      ...activityEndpoints.list,
      summary:
        "The selected organization's ledger, newest first: what happened, who did it, when; by kind, person, keychain, tag and days",
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'A page of entries' } },
    },
    async (c, { organization, query }) =>
      c.json(await listActivity(db, await scopeOf(organization.organizationId, query)), 200),
  )

  api.route(
    {
      ...activityEndpoints.export,
      summary:
        'The same view as CSV, streamed (the whole view: `limit` and `cursor` are ignored); its last row is the signed head of the log when the export began',
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'text/csv; charset=utf-8, as an attachment' } },
    },
    async (c, { organization, query }) =>
      c.body(activityCsv(db, await scopeOf(organization.organizationId, query), signing), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="activity.csv"',
      }),
  )

  api.route(
    {
      ...activityEndpoints.verification,
      summary:
        "Verify the selected organization's event log: every entry's hash recomputed against the one before it",
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'Whether the chain holds, and where it breaks' } },
    },
    async (c, { organization }) =>
      c.json(await verifyChain(deps.database.db, organization.organizationId), 200),
  )

  api.route(
    {
      ...activityEndpoints.head,
      summary:
        "The selected organization's ledger head, signed now by the server's key: its last entry's number and chain hash",
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'The signed head' } },
    },
    async (c, { organization }) => {
      const { organizationId } = organization
      const head = await ledgerHead(db, organizationId)
      return c.json(signedHead(deps.secret, deps.clock.now(), organizationId, head), 200)
    },
  )

  api.route(
    {
      ...activityEndpoints.publicKey,
      summary: 'The public key (Ed25519) that checks the signed heads of every organization’s ledger',
      access: 'public',
      responses: { 200: { description: 'The key, raw (base64url) and as PEM, with its id' } },
    },
    (c) => {
      const { keyId, publicKey, pem } = ledgerKeyOf(deps.secret)
      return c.json({ algorithm: 'Ed25519' as const, keyId, publicKey, pem }, 200)
    },
  )
}
