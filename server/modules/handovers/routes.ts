import { handoverEndpoints } from '../../../contract/endpoints/handovers.ts'
import { HandoverSchema, receiptJson } from '../../../contract/handover.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization, type OrganizationScope } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import type { CurrentSession } from '../../http/env.ts'
import { inRequestLanguage } from '../../http/request-locale.ts'
import { deviceKeysFile, handoverReceipt } from './receipt.ts'
import { handoverReceiptPdf } from './receipt-pdf.ts'
import { submitHandover } from './submit.ts'
import { appliedHandoverRow, listHandovers, readHandover } from './view.ts'

const NOT_FOUND = {
  404: { description: 'No such handover the caller may see (managers see all, anyone else their own)' },
}

/** `/handovers`: keychains handed from phone to phone offline, signed by both, applied once by the server. */
export function handoverRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const readerOf = (session: CurrentSession, organization: OrganizationScope) => ({
    userId: session.user.id,
    role: organization.role,
  })

  api.route(
    {
      ...handoverEndpoints.list,
      summary:
        'Handovers of the selected organization, newest first (by `status`): managers and admins see all of them, anyone else those they gave or received',
      access: inSelectedOrganization('read__handover'),
      responses: { 200: { description: 'A page of handovers' } },
    },
    async (c, { session, organization, query }) =>
      c.json(
        await listHandovers(db, organization.organizationId, readerOf(session, organization), query),
        200,
      ),
  )

  api.route(
    {
      ...handoverEndpoints.submit,
      summary:
        'Send a signed offer and its acceptance (from either phone): the first to arrive is applied, the same pair again answers that handover',
      access: inSelectedOrganization('create__handover'),
      responses: {
        200: { description: 'This pair was applied before: the handover as it was', schema: HandoverSchema },
        201: { description: 'Applied: the receiver holds the keychain', schema: HandoverSchema },
        400: { description: '`validation_failed`: no offer or acceptance, or one too long' },
        403: { description: 'The caller is neither the giver nor the receiver the offer names' },
        404: { description: 'The offer is of another organization than the selected one' },
        409: {
          description:
            '`handover_refused` with its `reason` (`HANDOVER_REFUSALS`); a refusal of the records (conflict, not custodian…) is kept, and answered with `handover`',
        },
      },
    },
    async (c, { session, organization, body }) => {
      const { handover, created } = await submitHandover(deps, {
        organizationId: organization.organizationId,
        callerId: session.user.id,
        offer: body.offer,
        acceptance: body.acceptance,
      })
      return c.json(handover, created ? 201 : 200)
    },
  )

  api.route(
    {
      ...handoverEndpoints.keys,
      summary:
        'The device keys of everyone who is or was a member (revoked and expired ones included) and the server’s public key: what checks a receipt offline',
      access: inSelectedOrganization('read__handover'),
      responses: { 200: { description: 'The keys file' } },
    },
    async (c, { organization }) =>
      c.json(await deviceKeysFile(db, deps.secret, organization.organizationId), 200),
  )

  api.route(
    {
      ...handoverEndpoints.one,
      summary: 'A handover, applied or refused',
      access: inSelectedOrganization('read__handover'),
      responses: { 200: { description: 'The handover' }, ...NOT_FOUND },
    },
    async (c, { session, organization, params }) =>
      c.json(
        await readHandover(db, organization.organizationId, readerOf(session, organization), params.id),
        200,
      ),
  )

  api.route(
    {
      ...handoverEndpoints.receipt,
      summary:
        'An applied handover’s receipt: both signed codes and the server’s record under its signature (`npm run verify-handover` checks it with the keys file)',
      access: inSelectedOrganization('read__handover'),
      responses: { 200: { description: 'The receipt, in its one spelling' }, ...NOT_FOUND },
    },
    async (c, { session, organization, params }) => {
      const row = await appliedHandoverRow(
        db,
        organization.organizationId,
        readerOf(session, organization),
        params.id,
      )
      return c.body(receiptJson(await handoverReceipt(db, deps.secret, row)), 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="handover-${row.id}.json"`,
      })
    },
  )

  api.route(
    {
      ...handoverEndpoints.receiptPdf,
      summary: 'An applied handover’s receipt as PDF, in the reader’s language',
      access: inSelectedOrganization('read__handover'),
      responses: { 200: { description: 'application/pdf' }, ...NOT_FOUND },
    },
    async (c, { session, organization, params }) => {
      const row = await appliedHandoverRow(
        db,
        organization.organizationId,
        readerOf(session, organization),
        params.id,
      )
      const { locale } = inRequestLanguage(c, session.user)
      const pdf = await handoverReceiptPdf(db, row, await handoverReceipt(db, deps.secret, row), locale)
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="handover-${row.id}.pdf"`,
      })
    },
  )
}
