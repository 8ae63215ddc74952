import { randomUUID } from 'node:crypto'
import type { Role } from '../../contract/permissions.ts'
import { keys } from '../db/schema.ts'
import { issueSignInToken } from '../modules/auth/sign-in-tokens.ts'
import {
  makeKeychain,
  makeTags,
  NEW_ORGANIZATION,
  organizationWithAdmin,
  signedInMember,
} from '../test/fixtures.ts'
import { type TestApp, uniqueEmail } from '../test/harness.ts'
import { type Access, inPathOrganization, inSelectedOrganization } from './access.ts'

/** What the matrix test sends for one route. */
export type Case = {
  path: string
  json?: unknown
  headers?: Record<string, string>
  /** Send it with a throwaway session of the caller (signing in or out ends the session it is sent with). */
  throwawaySession?: boolean
}

export type World = Awaited<ReturnType<typeof buildWorld>>
type Builder = (world: World) => Promise<Case>

/**
 * One entry per registered route, keyed `METHOD /path`: a valid request in the caller's own organization,
 * and one naming another organization's resource (expected 404), or the reason no such request exists.
 */
export type Fixture = {
  /** The declaration the route must carry: a change of who may call a route is reviewed here too. */
  access: Access
  own: Builder
  foreign: Builder | { notApplicable: string }
}

const LIST_ONLY = 'lists the caller’s own (or selected organization’s) data only'
const CREATE_ONLY = 'creates in the caller’s own scope; foreign ids in the body are validation errors'
const NO_RESOURCE = 'names no organization resource'

/** Two organizations: the callers' own (one member per role) and a foreign one with its own data. */
export async function buildWorld(t: TestApp) {
  const own = await organizationWithAdmin(t, 'Own')
  const foreign = await organizationWithAdmin(t, 'Foreign')
  const callers = {} as Record<Role, Awaited<ReturnType<typeof signedInMember>>>
  for (const role of ['ADMIN', 'MANAGER', 'MEMBER', 'CONTACT'] as const) {
    callers[role] = await signedInMember(t, own.organization.id, role)
  }
  const ownId = own.organization.id
  const foreignId = foreign.organization.id
  return {
    t,
    own: ownId,
    foreign: foreignId,
    foreignAdminId: foreign.admin.id,
    callers,
    tag: async (organizationId: string) => (await makeTags(t, organizationId))[0]!,
    keychain: (organizationId: string) => makeKeychain(t, organizationId, 'Matrix'),
    member: async () => (await signedInMember(t, ownId, 'MEMBER', { select: false })).id,
    key: async (organizationId: string) => {
      const keychain = await makeKeychain(t, organizationId, 'With key')
      const [key] = await t.db
        .insert(keys)
        .values({ keychainId: keychain.id, name: 'K', type: 'KEY', createdAt: t.clock.now() })
        .returning()
      return { keychainId: keychain.id, keyId: key!.id }
    },
  }
}

/** A route with one kind of request: no foreign variant exists, for the reason given. */
const single = (access: Access, own: Builder, notApplicable: string): Fixture => ({
  access,
  own,
  foreign: { notApplicable },
})

/** The same request built once in the caller's own organization and once in the foreign one. */
const inEach = (access: Access, build: (w: World, organizationId: string) => Promise<Case>): Fixture => ({
  access,
  own: (w) => build(w, w.own),
  foreign: (w) => build(w, w.foreign),
})

const get =
  (path: string): Builder =>
  async () => ({ path })
const REPORT = { message: 'Found at the station.', contact: 'finder@example.test' }
const keychainPath = async (w: World, organizationId: string, suffix = '') =>
  `/api/keychains/${(await w.keychain(organizationId)).id}${suffix}`
const keyPath = async (w: World, organizationId: string) => {
  const { keychainId, keyId } = await w.key(organizationId)
  return `/api/keychains/${keychainId}/keys/${keyId}`
}
const tagPath = async (w: World, organizationId: string, suffix = '') =>
  `/api/tags/${(await w.tag(organizationId)).publicId}${suffix}`
const selected = inSelectedOrganization
const inPath = inPathOrganization

export const FIXTURES: Record<string, Fixture> = {
  'GET /health': single('public', get('/api/health'), NO_RESOURCE),
  'GET /openapi.json': single('public', get('/api/openapi.json'), NO_RESOURCE),
  'POST /email-tokens': single(
    'public',
    async () => ({ path: '/api/email-tokens', json: { email: uniqueEmail() } }),
    NO_RESOURCE,
  ),
  'POST /sessions': single(
    'public',
    async (w) => {
      const { token } = await issueSignInToken(w.t.deps, uniqueEmail(), 'fr')
      return { path: '/api/sessions', json: { token }, throwawaySession: true }
    },
    NO_RESOURCE,
  ),
  'DELETE /session': single(
    'public',
    async () => ({ path: '/api/session', throwawaySession: true }),
    NO_RESOURCE,
  ),
  'GET /profile': single('signedIn', get('/api/profile'), NO_RESOURCE),
  'PATCH /profile': single(
    'signedIn',
    async () => ({ path: '/api/profile', json: { firstName: 'M' } }),
    NO_RESOURCE,
  ),

  'GET /organizations': single('signedIn', get('/api/organizations'), LIST_ONLY),
  'POST /organizations': single(
    'signedIn',
    async () => ({ path: '/api/organizations', json: NEW_ORGANIZATION }),
    CREATE_ONLY,
  ),
  'GET /organizations/default': single('signedIn', get('/api/organizations/default'), LIST_ONLY),
  'PATCH /organizations/default': inEach('signedIn', async (_w, id) => ({
    path: '/api/organizations/default',
    json: { id },
  })),
  'GET /organizations/:id': inEach(inPath('read__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}`,
  })),
  'GET /organizations/:id/tags': inEach(inPath('read__tag'), async (_w, id) => ({
    path: `/api/organizations/${id}/tags`,
  })),
  'GET /organizations/:id/users': inEach(inPath('read__member'), async (_w, id) => ({
    path: `/api/organizations/${id}/users`,
  })),
  'POST /organizations/:id/users': inEach(inPath('create__member'), async (_w, id) => ({
    path: `/api/organizations/${id}/users`,
    json: { email: uniqueEmail(), role: 'MEMBER' },
  })),

  'GET /users': single(selected('read__member'), get('/api/users'), LIST_ONLY),
  'GET /users/:id': inEach(selected('read__member'), async (w, id) => ({
    path: `/api/users/${id === w.own ? await w.member() : w.foreignAdminId}`,
  })),
  'PATCH /users/:id': inEach(selected('update__member'), async (w, id) => ({
    path: `/api/users/${id === w.own ? await w.member() : w.foreignAdminId}`,
    json: { firstName: 'Edited' },
  })),

  'GET /keychains': single(selected('read__keychain'), get('/api/keychains'), LIST_ONLY),
  'POST /keychains': single(
    selected('create__keychain'),
    async () => ({ path: '/api/keychains', json: { name: 'New' } }),
    CREATE_ONLY,
  ),
  'GET /keychains/:id': inEach(selected('read__keychain'), async (w, id) => ({
    path: await keychainPath(w, id),
  })),
  'PATCH /keychains/:id': inEach(selected('update__keychain'), async (w, id) => ({
    path: await keychainPath(w, id),
    json: { name: 'Renamed' },
  })),
  'DELETE /keychains/:id': inEach(selected('delete__keychain'), async (w, id) => ({
    path: await keychainPath(w, id),
  })),
  'GET /keychains/:id/custody-log': inEach(selected('read__keychain'), async (w, id) => ({
    path: await keychainPath(w, id, '/custody-log'),
  })),
  'POST /keychains/:id/keys': inEach(selected('create__key'), async (w, id) => ({
    path: await keychainPath(w, id, '/keys'),
    json: { type: 'KEY', name: 'K' },
  })),
  'PATCH /keychains/:id/keys/:keyId': inEach(selected('update__key'), async (w, id) => ({
    path: await keyPath(w, id),
    json: { name: 'Renamed' },
  })),
  'DELETE /keychains/:id/keys/:keyId': inEach(selected('delete__key'), async (w, id) => ({
    path: await keyPath(w, id),
  })),

  'GET /tags': single(selected('read__tag'), get('/api/tags'), LIST_ONLY),
  'GET /tags/:publicId': inEach('public', async (w, id) => ({ path: await tagPath(w, id) })),
  'POST /tags/:publicId/found-reports': inEach('public', async (w, id) => ({
    path: await tagPath(w, id, '/found-reports'),
    json: REPORT,
  })),

  'POST /scans': single(
    selected('create__scan'),
    async (w) => ({
      path: '/api/scans',
      json: { value: (await w.tag(w.own)).code },
      headers: { 'idempotency-key': randomUUID() },
    }),
    'resolves a value rather than naming a resource: a foreign tag answers 201 {status: "foreign"}',
  ),
}
