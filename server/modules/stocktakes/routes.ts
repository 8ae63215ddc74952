import { stocktakeEndpoints } from '../../../contract/endpoints/stocktakes.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { REPLAYED_HEADER } from '../../http/idempotency.ts'
import { inRequestLanguage } from '../../http/request-locale.ts'
import { closeStocktake, reportDevice } from './close.ts'
import { listDue } from './due.ts'
import { stocktakeReportCsv, stocktakeReportPdf } from './report.ts'
import { recordStocktakeScan } from './scan.ts'
import { startStocktake } from './start.ts'
import { listStocktakes, stocktakeDetail } from './view.ts'

const NOT_FOUND = { 404: { description: 'No such stocktake in the selected organization' } }

/** `/stocktakes`: start one on a scope, scan into it from any device, close it, read its report. */
export function stocktakeRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...stocktakeEndpoints.list,
      summary: 'Stocktakes of the selected organization, newest first (by `status`), with their tally',
      access: inSelectedOrganization('read__stocktake'),
      responses: { 200: { description: 'A page of stocktakes' } },
    },
    async (c, { organization, query }) =>
      c.json(await listStocktakes(db, organization.organizationId, query), 200),
  )

  api.route(
    {
      ...stocktakeEndpoints.due,
      summary: 'Places whose recurring stocktake is due or overdue today (dashboard)',
      access: inSelectedOrganization('read__stocktake'),
      responses: { 200: { description: 'The places, soonest due first' } },
    },
    async (c, { organization }) =>
      c.json(await listDue(db, organization.organizationId, deps.clock.now()), 200),
  )

  api.route(
    {
      ...stocktakeEndpoints.start,
      summary:
        'Start a stocktake of a place and everything under it, or of the whole organization (`placeId: null`): it expects the keychains at home there that nobody holds',
      access: inSelectedOrganization('create__stocktake'),
      responses: {
        201: { description: 'The stocktake, with what it expects' },
        404: { description: 'No such place in the selected organization' },
        409: { description: 'A stocktake of this scope is open already' },
      },
    },
    async (c, { session, organization, body }) =>
      c.json(
        await startStocktake(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          placeId: body.placeId,
        }),
        201,
      ),
  )

  api.route(
    {
      ...stocktakeEndpoints.one,
      summary:
        'A stocktake: its tally, per board, every expected keychain, the unexpected scans, the devices',
      access: inSelectedOrganization('read__stocktake'),
      responses: { 200: { description: 'The stocktake' }, ...NOT_FOUND },
    },
    async (c, { organization, params }) =>
      c.json(await stocktakeDetail(db, organization.organizationId, params.id), 200),
  )

  api.route(
    {
      ...stocktakeEndpoints.scan,
      summary:
        'Record a scan into a stocktake (a hook label or a tag) and answer what it was; the Idempotency-Key is the scan’s id: a replay counts nothing',
      access: inSelectedOrganization('scan__stocktake'),
      responses: {
        201: { description: 'Recorded (or the stored answer of the same Idempotency-Key)' },
        403: { description: 'The organization keeps stocktakes to a higher role' },
        ...NOT_FOUND,
        409: { description: 'This device already sent another scan with this number' },
        422: { description: 'Idempotency-Key already used for another request' },
      },
    },
    async (c, { session, organization, params, headers, body }) => {
      const { result, replayed } = await recordStocktakeScan(deps, {
        organizationId: organization.organizationId,
        role: organization.role,
        userId: session.user.id,
        stocktakeId: params.id,
        key: headers['idempotency-key'],
        body,
        clientTime: headers['x-client-time'] ? new Date(headers['x-client-time']) : null,
      })
      if (replayed) c.header(REPLAYED_HEADER, 'true')
      return c.json(result, 201)
    },
  )

  api.route(
    {
      ...stocktakeEndpoints.reportDevice,
      summary:
        'How many scans this device has made for the stocktake (never lowered): the close waits for all of them',
      access: inSelectedOrganization('scan__stocktake'),
      responses: {
        200: { description: 'The device, with what the server has received' },
        403: { description: 'The organization keeps stocktakes to a higher role' },
        ...NOT_FOUND,
      },
    },
    async (c, { session, organization, params, body }) =>
      c.json(
        await reportDevice(deps, {
          organizationId: organization.organizationId,
          role: organization.role,
          userId: session.user.id,
          id: params.id,
          deviceId: params.deviceId,
          made: body.made,
        }),
        200,
      ),
  )

  api.route(
    {
      ...stocktakeEndpoints.close,
      summary:
        'Close a stocktake: what was not seen is missing; recorded in the log, the admins told what is missing',
      access: inSelectedOrganization('update__stocktake'),
      responses: {
        200: { description: 'The closed stocktake' },
        ...NOT_FOUND,
        409: {
          description:
            'Closed already, or a device has scans the server has not had (`stocktake_scans_unsent`, naming them)',
        },
      },
    },
    async (c, { session, organization, params }) =>
      c.json(
        await closeStocktake(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          id: params.id,
        }),
        200,
      ),
  )

  api.route(
    {
      ...stocktakeEndpoints.reportCsv,
      summary: 'The stocktake’s report as CSV, in the reader’s language',
      access: inSelectedOrganization('read__stocktake'),
      responses: { 200: { description: 'text/csv; charset=utf-8, as an attachment' }, ...NOT_FOUND },
    },
    async (c, { session, organization, params }) => {
      const { locale } = inRequestLanguage(c, session.user)
      const csv = await stocktakeReportCsv(db, organization.organizationId, params.id, locale)
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="stocktake-${params.id}.csv"`,
      })
    },
  )

  api.route(
    {
      ...stocktakeEndpoints.reportPdf,
      summary: 'The stocktake’s report as PDF, in the reader’s language',
      access: inSelectedOrganization('read__stocktake'),
      responses: { 200: { description: 'application/pdf' }, ...NOT_FOUND },
    },
    async (c, { session, organization, params }) => {
      const { locale } = inRequestLanguage(c, session.user)
      const pdf = await stocktakeReportPdf(db, organization.organizationId, params.id, locale)
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="stocktake-${params.id}.pdf"`,
      })
    },
  )
}
