import { keychainEndpoints } from '../../../contract/endpoints/keychains.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { forbidden } from '../../http/errors.ts'
import { idempotent, idempotentResponse } from '../../http/idempotency.ts'
import { custodyLogOf } from './custody.ts'
import { keychainById } from './detail.ts'
import { addKey, addKeyIn, refusingTakenTag, removeKey, renameKey } from './keys.ts'
import { listKeychainsJson } from './list.ts'
import { createKeychain, createKeychainIn, deleteKeychain, findKeychain, updateKeychain } from './service.ts'
import { restoreKeychain } from './soft-delete.ts'

/** Keychains and their keys, in the selected organization. */
export function keychainRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  /**
   * With an `Idempotency-Key` (the outbox's pairing of a scanned tag), `write` runs once per key in the key's
   * transaction and a replay answers the stored 201; a refusal (tag taken: 409) stores nothing.
   */
  const once = (
    userId: string,
    key: string,
    request: string,
    payload: unknown,
    write: (tx: typeof db) => Promise<unknown>,
  ) =>
    refusingTakenTag(() =>
      idempotent(db, { userId, key, request, payload, now: deps.clock.now() }, async (tx) => ({
        status: 201 as const,
        body: await write(tx),
      })),
    )

  api.route(
    {
      ...keychainEndpoints.list,
      summary:
        'Keychains in natural order of name (or holder, or last change), paginated by cursor; `q` (part of the name, a tag code, the holder), `status`, `custodianId`; `tagMatch` names the keychain of a whole tag code searched',
      access: inSelectedOrganization('read__keychain'),
      responses: {
        200: { description: 'A page of keychains' },
        403: { description: '`status=deleted` without the right to delete keychains' },
      },
    },
    async (c, { organization, query }) => {
      if (query.status === 'deleted' && !organization.permissions.includes('delete__keychain'))
        throw forbidden()
      const page = await listKeychainsJson(db, organization.organizationId, query, deps.clock.now())
      return c.body(page, 200, { 'content-type': 'application/json' })
    },
  )

  api.route(
    {
      ...keychainEndpoints.create,
      summary:
        'Create a keychain, optionally with its custodian (logged in the custody log) and its first key (`firstKey`, e.g. a scanned free tag) in one transaction; once per `Idempotency-Key` when one is sent',
      access: inSelectedOrganization('create__keychain'),
      responses: {
        201: { description: 'Created (or the stored answer of the same Idempotency-Key)' },
        409: { description: "`tag_taken`: the first key's tag is already on a key; nothing created" },
        422: { description: 'Idempotency-Key already used for another request' },
      },
    },
    async (c, { organization, session, headers, body }) => {
      const input = { organizationId: organization.organizationId, actorId: session.user.id, keychain: body }
      const key = headers['idempotency-key']
      if (!key) return c.json(await createKeychain(deps, input), 201)
      const payload = { organizationId: organization.organizationId, ...body }
      const answer = await once(session.user.id, key, 'POST /api/keychains', payload, (tx) =>
        createKeychainIn(tx, { ...input, now: deps.clock.now() }),
      )
      return idempotentResponse(c, answer)
    },
  )

  api.route(
    {
      ...keychainEndpoints.one,
      summary: 'A keychain with its custodian and keys',
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'The keychain' } },
    },
    async (c, { organization, params }) =>
      c.json(await keychainById(db, organization.organizationId, params.id, deps.clock.now()), 200),
  )

  api.route(
    {
      ...keychainEndpoints.update,
      summary: 'Rename and/or change custodian (with a reason, kept in the custody log)',
      access: inSelectedOrganization('update__keychain'),
      responses: { 200: { description: 'The updated keychain' } },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await updateKeychain(deps, {
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
      ...keychainEndpoints.remove,
      summary:
        'Delete a keychain (soft: it leaves lists, search, scans and the mirror; its tags become free meanwhile; `POST /keychains/{id}/restore` brings it back)',
      access: inSelectedOrganization('delete__keychain'),
      responses: {
        204: { description: 'Deleted' },
        409: { description: 'Cannot be deleted now (e.g. an active transfer)' },
      },
    },
    async (c, { organization, session, params }) => {
      await deleteKeychain(deps, {
        organizationId: organization.organizationId,
        id: params.id,
        actorId: session.user.id,
      })
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...keychainEndpoints.restore,
      summary: 'Restore a deleted keychain with its keys and their tags',
      access: inSelectedOrganization('delete__keychain'),
      responses: {
        200: { description: 'The keychain, back in the lists' },
        409: { description: '`tag_taken`: one of its tags went on another key meanwhile; nothing restored' },
      },
    },
    async (c, { organization, session, params }) =>
      c.json(
        await restoreKeychain(deps, {
          organizationId: organization.organizationId,
          id: params.id,
          actorId: session.user.id,
        }),
        200,
      ),
  )

  api.route(
    {
      ...keychainEndpoints.custodyLog,
      summary: "The keychain's custodian changes, newest first",
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'The custody log' } },
    },
    async (c, { organization, params }) => {
      const keychain = await findKeychain(db, organization.organizationId, params.id)
      return c.json({ data: await custodyLogOf(db, keychain.id) }, 200)
    },
  )

  api.route(
    {
      ...keychainEndpoints.addKey,
      summary:
        'Add a key: a plain KEY, or a TAG key naming an unused tag of the organization; once per `Idempotency-Key` when one is sent',
      access: inSelectedOrganization('create__key'),
      responses: {
        201: { description: 'The new key (or the stored answer of the same Idempotency-Key)' },
        409: { description: '`tag_taken`: the tag is already on a key' },
        422: { description: 'Idempotency-Key already used for another request' },
      },
    },
    async (c, { organization, session, params, headers, body }) => {
      const input = {
        organizationId: organization.organizationId,
        keychainId: params.id,
        key: body,
        actorId: session.user.id,
      }
      const key = headers['idempotency-key']
      if (!key) return c.json(await addKey(deps, input), 201)
      const request = `POST /api/keychains/${params.id}/keys`
      const payload = { organizationId: organization.organizationId, ...body }
      const answer = await once(session.user.id, key, request, payload, (tx) =>
        addKeyIn(tx, { ...input, now: deps.clock.now() }),
      )
      return idempotentResponse(c, answer)
    },
  )

  api.route(
    {
      ...keychainEndpoints.renameKey,
      summary: 'Rename a key',
      access: inSelectedOrganization('update__key'),
      responses: { 200: { description: 'The renamed key' } },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await renameKey(deps, {
          organizationId: organization.organizationId,
          keychainId: params.id,
          keyId: params.keyId,
          name: body.name,
          actorId: session.user.id,
        }),
        200,
      ),
  )

  api.route(
    {
      ...keychainEndpoints.removeKey,
      summary: 'Remove a key (its tag becomes free)',
      access: inSelectedOrganization('delete__key'),
      responses: { 204: { description: 'Removed' } },
    },
    async (c, { organization, session, params }) => {
      await removeKey(deps, {
        organizationId: organization.organizationId,
        keychainId: params.id,
        keyId: params.keyId,
        actorId: session.user.id,
      })
      return c.body(null, 204)
    },
  )
}
