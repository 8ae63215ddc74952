import { keychainEndpoints } from '../../../contract/endpoints/keychains.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { custodyLogOf } from './custody.ts'
import { keychainById } from './detail.ts'
import { addKey, removeKey, renameKey } from './keys.ts'
import { listKeychains } from './list.ts'
import { createKeychain, deleteKeychain, findKeychain, updateKeychain } from './service.ts'

/** Keychains and their keys, in the selected organization. */
export function keychainRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...keychainEndpoints.list,
      summary: 'Keychains by name, paginated by cursor; `q` (part of the name), `custodianId`',
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'A page of keychains' } },
    },
    async (c, { organization, query }) =>
      c.json(await listKeychains(db, organization.organizationId, query), 200),
  )

  api.route(
    {
      ...keychainEndpoints.create,
      summary: 'Create a keychain, optionally with its custodian (logged in the custody log)',
      access: inSelectedOrganization('create__keychain'),
      responses: { 201: { description: 'Created' } },
    },
    async (c, { organization, session, body }) =>
      c.json(
        await createKeychain(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          keychain: body,
        }),
        201,
      ),
  )

  api.route(
    {
      ...keychainEndpoints.one,
      summary: 'A keychain with its custodian and keys',
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'The keychain' } },
    },
    async (c, { organization, params }) =>
      c.json(await keychainById(db, organization.organizationId, params.id), 200),
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
      summary: 'Delete a keychain and its keys; its tags become free',
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
      summary: 'Add a key: a plain KEY, or a TAG key naming an unused tag of the organization',
      access: inSelectedOrganization('create__key'),
      responses: {
        201: { description: 'The new key' },
        409: { description: 'The tag is already on a key' },
      },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await addKey(deps, {
          organizationId: organization.organizationId,
          keychainId: params.id,
          key: body,
          actorId: session.user.id,
        }),
        201,
      ),
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
