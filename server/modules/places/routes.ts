import { placeEndpoints } from '../../../contract/endpoints/places.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { forbidden } from '../../http/errors.ts'
import { idempotent, idempotentResponse } from '../../http/idempotency.ts'
import { renderLabelsPdf } from '../labels/pdf.ts'
import { placeLabels } from './labels.ts'
import { hangKeychain, keychainLocation, setKeychainHome } from './location.ts'
import { addHooks, createPlace, deletePlace, removeHook, updatePlace } from './service.ts'
import { placeDetail, placeTree } from './tree.ts'

const TREE_REFUSED =
  '`place_tree_refused`: under a board or cabinet, under itself or a place under it, or deeper than `PLACE_DEPTH_MAX`'

/** `/places`: the organization's places and hooks, and where each keychain lives (`/keychains/{id}/home`…). */
export function placeRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const { publicUrl } = deps.config

  api.route(
    {
      ...placeEndpoints.tree,
      summary:
        'The organization’s places, flat, parents before children and siblings by name, with hook and home counts, the recurring stocktake and the last result',
      access: inSelectedOrganization('read__place'),
      responses: { 200: { description: 'Every place of the organization' } },
    },
    async (c, { organization }) => c.json({ data: await placeTree(db, organization.organizationId) }, 200),
  )

  api.route(
    {
      ...placeEndpoints.one,
      summary: 'A place with the path to it and its hooks in order, each with the keychains whose home it is',
      access: inSelectedOrganization('read__place'),
      responses: { 200: { description: 'The place' } },
    },
    async (c, { organization, params }) =>
      c.json(await placeDetail(db, organization.organizationId, params.id), 200),
  )

  api.route(
    {
      ...placeEndpoints.create,
      summary: 'Create a place (a site, a room, a board or a cabinet), at the top or under another place',
      access: inSelectedOrganization('create__place'),
      responses: {
        201: { description: 'The place made' },
        404: { description: 'The parent is not one of the organization’s places' },
        409: { description: TREE_REFUSED },
      },
    },
    async (c, { organization, session, body }) =>
      c.json(
        await createPlace(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          place: body,
        }),
        201,
      ),
  )

  api.route(
    {
      ...placeEndpoints.update,
      summary:
        'Rename a place, move it with everything under it, or set or clear its recurring stocktake (due in the organization’s time zone)',
      access: inSelectedOrganization('update__place'),
      responses: { 200: { description: 'The place as it is now' }, 409: { description: TREE_REFUSED } },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await updatePlace(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          id: params.id,
          update: body,
        }),
        200,
      ),
  )

  api.route(
    {
      ...placeEndpoints.remove,
      summary: 'Delete a place and its hooks',
      access: inSelectedOrganization('delete__place'),
      responses: {
        204: { description: 'Deleted' },
        409: {
          description:
            '`place_in_use`: places under it, keychains whose home is one of its hooks, an open stocktake covering it, or stocktakes of it on record',
        },
      },
    },
    async (c, { organization, session, params }) => {
      await deletePlace(deps, {
        organizationId: organization.organizationId,
        actorId: session.user.id,
        id: params.id,
      })
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...placeEndpoints.addHooks,
      summary:
        'Number hooks on a board or cabinet in a range (prefix, from, to, width), skipping the codes it has',
      access: inSelectedOrganization('update__place'),
      responses: {
        201: { description: 'How many were made and skipped, and the hooks made' },
        409: {
          description:
            '`hooks_refused`: the place is not a board or cabinet, or it would hold more than `HOOKS_PER_PLACE_MAX` hooks',
        },
      },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await addHooks(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          placeId: params.id,
          range: body,
        }),
        201,
      ),
  )

  api.route(
    {
      ...placeEndpoints.removeHook,
      summary: 'Remove a hook of a board or cabinet',
      access: inSelectedOrganization('update__place'),
      responses: {
        204: { description: 'Removed' },
        409: { description: '`place_in_use`: it is a keychain’s home' },
      },
    },
    async (c, { organization, session, params }) => {
      await removeHook(deps, {
        organizationId: organization.organizationId,
        actorId: session.user.id,
        placeId: params.id,
        hookId: params.hookId,
      })
      return c.body(null, 204)
    },
  )

  const labelResponses = {
    400: { description: '`label_selection_empty`: no hook to print and the board’s own label left out' },
    404: { description: 'The place, or a chosen hook on it, is not the organization’s' },
    409: { description: '`hooks_refused`: the place is not a board or cabinet' },
  }

  api.route(
    {
      ...placeEndpoints.labels,
      summary: 'The labels of a board’s hooks (and its own) for the browser’s print view',
      access: inSelectedOrganization('read__place'),
      responses: { 200: { description: 'The format and each label' }, ...labelResponses },
    },
    async (c, { organization, params, body }) => {
      const labels = await placeLabels(db, organization.organizationId, params.id, body, publicUrl)
      return c.json({ format: body.format, labels }, 200)
    },
  )

  api.route(
    {
      ...placeEndpoints.labelsPdf,
      summary:
        'The labels of a board’s hooks (and its own) as a PDF at a label format’s real size, Brother and Dymo rolls included',
      access: inSelectedOrganization('read__place'),
      responses: { 200: { description: 'application/pdf' }, ...labelResponses },
    },
    async (c, { organization, params, body }) => {
      const labels = await placeLabels(db, organization.organizationId, params.id, body, publicUrl)
      const pdf = await renderLabelsPdf(body.format, labels, { withName: true })
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="hooks-${body.format}.pdf"`,
        'Cache-Control': 'private, no-store',
      })
    },
  )

  api.route(
    {
      ...placeEndpoints.location,
      summary: 'Where a keychain is: held, on its home hook, misplaced on another hook, or unknown',
      access: inSelectedOrganization('read__place'),
      responses: { 200: { description: 'Its whereabouts, home and last hook' } },
    },
    async (c, { organization, params }) =>
      c.json(await keychainLocation(db, organization.organizationId, params.id), 200),
  )

  api.route(
    {
      ...placeEndpoints.setHome,
      summary: 'Set, change or clear a keychain’s home hook',
      access: inSelectedOrganization('update__keychain'),
      responses: {
        200: { description: 'Its location with the new home' },
        404: { description: 'The keychain or the hook is not the organization’s' },
      },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await setKeychainHome(db, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          id: params.id,
          hookId: body.hookId,
          now: deps.clock.now(),
        }),
        200,
      ),
  )

  api.route(
    {
      ...placeEndpoints.hookScan,
      summary:
        'A returned keychain put on a hook (its label scanned): its home, another hook (misplaced), or its new home (`makeHome`, managers); idempotent by Idempotency-Key',
      // Every role that scans but a CONTACT (who scans to pick up what is lent to them): a CONTACT never sees places.
      access: inSelectedOrganization('read__place'),
      responses: {
        201: {
          description: 'The outcome and its location (or the stored answer of the same Idempotency-Key)',
        },
        400: {
          description: '`not_a_hook_label`: the value is not the label of one of the organization’s hooks',
        },
        403: { description: '`makeHome` without the right to update keychains' },
        409: { description: '`keychain_held`: someone holds it (its custodian, or out on a transfer)' },
      },
    },
    async (c, { organization, session, params, headers, body }) => {
      if (body.makeHome && !organization.permissions.includes('update__keychain')) throw forbidden()
      const now = deps.clock.now()
      const answer = await idempotent(
        db,
        {
          userId: session.user.id,
          key: headers['idempotency-key'],
          request: `POST /api/keychains/${params.id}/hook-scans`,
          payload: body,
          now,
        },
        async (tx) => ({
          status: 201 as const,
          body: await hangKeychain(tx, {
            organizationId: organization.organizationId,
            actorId: session.user.id,
            keychainId: params.id,
            value: body.value,
            makeHome: body.makeHome,
            clientTime: headers['x-client-time'] ? new Date(headers['x-client-time']) : null,
            fromQueue: headers['x-from-queue'] === '1',
            now,
          }),
        }),
      )
      return idempotentResponse(c, answer)
    },
  )
}
