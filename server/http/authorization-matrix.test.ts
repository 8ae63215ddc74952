import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type Credential,
  permissionsFor,
  ROLES,
  type Role,
  WITHHELD_FROM_TOKENS,
} from '../../contract/permissions.ts'
import {
  buildWorld,
  type Caller,
  FIXTURES,
  MATRIX_OIDC,
  MATRIX_OPERATOR,
  MATRIX_STRIPE,
  type World,
} from '../../tests/server/authorization-fixtures.ts'
import { TestClock } from '../../tests/server/clock.ts'
import { setupTestApp, testConfig } from '../../tests/server/harness.ts'
import { CapturedMailer } from '../../tests/server/mailer.ts'
import { createApp } from '../app.ts'
import type { Database } from '../db/client.ts'
import { apiTokens } from '../db/schema.ts'
import type { AppDeps } from '../deps.ts'
import { createLogger } from '../logger.ts'
import { createApiToken, revokeApiToken } from '../modules/api-tokens/service.ts'
import type { RouteSpec } from './route-spec.ts'

/**
 * For every registered route, every role of the caller's own organization, a platform operator (who is a
 * MEMBER there) and a signed-out caller, against their own organization and a foreign one: the status the
 * route's access declaration and ROLE_PERMISSIONS call for. A new route without a FIXTURES entry fails here.
 *
 * @database-agnostic: one caller at a time and the access rules decide every answer; it runs on PGlite only (the
 * server's 5xx on either database are `no-server-errors.test.ts`'s).
 */

// The route table, known before any test runs (building the app touches no database).
const { registry } = createApp({
  config: testConfig(),
  database: {} as Database,
  mailer: new CapturedMailer(),
  clock: new TestClock(),
  logger: createLogger('silent'),
  secret: Buffer.alloc(32),
  version: 'test',
  jobs: { nudge: () => undefined, drain: async () => 0 },
} satisfies AppDeps)
const routes = registry.routes
const keyOf = (route: Pick<RouteSpec, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`

const CALLERS: Caller[] = [...ROLES, 'operator', 'signed out']

function successStatus(route: RouteSpec): number {
  const status = Object.keys(route.responses)
    .map(Number)
    .find((code) => code >= 200 && code < 400)
  if (!status) throw new Error(`${keyOf(route)} declares no 2xx (or 3xx) answer`)
  return status
}

/**
 * What the declaration promises: 401 signed out, 403 without the permission (or not an operator), 404 for a
 * foreign resource; an operator passes operator declarations for any organization, and is a MEMBER otherwise.
 * With a token, the role's permissions lack `WITHHELD_FROM_TOKENS`, and an operator does not pass those.
 */
function expectedStatus(
  route: RouteSpec,
  caller: Caller,
  target: 'own' | 'foreign',
  credential: Credential = 'session',
): number {
  const { access } = route
  const success = successStatus(route)
  if (access === 'public') return success
  if (caller === 'signed out') return 401
  if (access === 'operator') return caller === 'operator' ? success : 403
  if (access === 'signedIn') return target === 'foreign' ? 404 : success
  const withheld = credential === 'token' && WITHHELD_FROM_TOKENS.includes(access.permission)
  if (access.operators && caller === 'operator' && !withheld) return success
  const role = caller === 'operator' ? 'MEMBER' : caller
  const permitted = permissionsFor(role, false, credential).includes(access.permission)
  if (access.organization === 'path' && target === 'foreign') return 404
  if (!permitted) return 403
  return target === 'foreign' ? 404 : success
}

/**
 * API token callers (`Authorization: Bearer`, no cookie): a personal token of each role (and of the operator),
 * an organization token of the own organization made by its ADMIN with each role, and a revoked and an
 * expired token.
 */
type TokenCaller =
  | { via: 'personal'; role: Exclude<Caller, 'signed out'> }
  | { via: 'organization'; role: Role }
  | { via: 'revoked' }
  | { via: 'expired' }
const TOKEN_CALLERS: Record<string, TokenCaller> = Object.fromEntries([
  ...[...ROLES, 'operator' as const].map((role) => [`personal token of ${role}`, { via: 'personal', role }]),
  ...ROLES.map((role) => [`organization token as ${role}`, { via: 'organization', role }]),
  ['revoked token', { via: 'revoked' }],
  ['expired token', { via: 'expired' }],
])

/**
 * A token caller gets what a session caller of its role gets, except: routes that take a session only (the
 * token routes, making a calendar feed) answer 403; no token passes a permission of `WITHHELD_FROM_TOKENS`
 * (403 in its own organization, the 404 of a foreign one first); an organization token answers 403 on a
 * person's routes (`signedIn`, `operator`) and is never an operator; a revoked or expired token answers 401
 * everywhere.
 */
function expectedTokenStatus(route: RouteSpec, caller: TokenCaller, target: 'own' | 'foreign'): number {
  if (caller.via === 'revoked' || caller.via === 'expired') return 401
  if (route.credentials === 'session') return 403
  if (caller.via === 'personal') return expectedStatus(route, caller.role, target, 'token')
  if (route.access === 'signedIn' || route.access === 'operator') return 403
  return expectedStatus(route, caller.role, target, 'token')
}

/**
 * The person's routes that change something and that a personal token may call: each was judged to make no
 * credential and no power that outlives the token. A new one must be added here, or take a session only.
 */
const PERSON_WRITES_OPEN_TO_TOKENS = [
  // A new organization of the token's own user: nobody else gains anything, and its members and webhooks
  // are still managed from a session.
  'POST /organizations',
  'PATCH /organizations/default',
  // Names, phone, language, reminders and theme; never the e-mail address the account signs in with.
  'PATCH /profile',
  // The recipient's own moves on a transfer addressed to them.
  'POST /transfers/:id/pickups',
  'POST /transfers/:id/extensions',
  // Ending a credential, never making one.
  'DELETE /calendar-feeds/:id',
]

const t = setupTestApp({ config: { operatorEmails: [MATRIX_OPERATOR], ...MATRIX_STRIPE, ...MATRIX_OIDC } })
let world: World
const tokens = new Map<string, string>()
beforeAll(async () => {
  world = await buildWorld(t)
  for (const [name, caller] of Object.entries(TOKEN_CALLERS)) {
    const creator = {
      ...world.callers[caller.via === 'personal' ? caller.role : 'ADMIN'],
      firstName: '',
      lastName: '',
    }
    const made =
      caller.via === 'organization'
        ? await createApiToken(t.deps, {
            kind: 'organization',
            organizationId: world.own,
            role: caller.role,
            creator,
            name,
            expiresAt: null,
          })
        : await createApiToken(t.deps, { kind: 'personal', creator, name, expiresAt: null })
    if (caller.via === 'revoked') {
      await revokeApiToken(t.deps, made.apiToken.id, { kind: 'personal', userId: creator.id })
    }
    if (caller.via === 'expired') {
      await t.db.update(apiTokens).set({ expiresAt: t.clock.now() }).where(eq(apiTokens.id, made.apiToken.id))
    }
    tokens.set(name, made.token)
  }
})

async function send(route: RouteSpec, caller: Caller | string, target: 'own' | 'foreign') {
  const fixture = FIXTURES[keyOf(route)]!
  const build = target === 'own' ? fixture.own : fixture.foreign
  if (typeof build !== 'function') return null
  const token = tokens.get(caller)
  const tokenCaller = TOKEN_CALLERS[caller]
  // The user a request acts as: a token's owner (an organization token's creator), for per-user data.
  const user =
    caller === 'signed out'
      ? null
      : tokenCaller
        ? world.callers[tokenCaller.via === 'personal' ? tokenCaller.role : 'ADMIN']
        : world.callers[caller as Exclude<Caller, 'signed out'>]
  const request = await build(world, user)
  let cookie: string | undefined
  if (user && !token) {
    cookie = request.throwawaySession ? (await t.signIn(user.email)).cookie : user.cookie
  }
  const response = await t.request(request.path, {
    method: route.method.toUpperCase(),
    cookie,
    json: request.json,
    body: request.body,
    headers: token ? { ...request.headers, authorization: `Bearer ${token}` } : request.headers,
  })
  return { status: response.status, body: await response.text() }
}

describe('the route table', () => {
  it('lets API tokens make no credential on a person’s routes: each write there takes a session, or is judged open', () => {
    const personWrites = routes
      .filter(
        (route) => route.access === 'signedIn' && route.method !== 'get' && route.credentials !== 'session',
      )
      .map(keyOf)
    expect(personWrites.filter((key) => !PERSON_WRITES_OPEN_TO_TOKENS.includes(key))).toEqual([])
  })

  it('has a fixture for every registered route, and none for a route that does not exist', () => {
    const registered = routes.map(keyOf).sort()
    expect(
      registered.filter((key) => !(key in FIXTURES)),
      'routes without a FIXTURES entry',
    ).toEqual([])
    expect(
      Object.keys(FIXTURES).filter((key) => !registered.includes(key)),
      'stale FIXTURES entries',
    ).toEqual([])
  })

  it('declares on every route the access its FIXTURES entry expects', () => {
    for (const route of routes) expect(route.access, keyOf(route)).toEqual(FIXTURES[keyOf(route)]?.access)
  })
})

describe.each(routes.map((route) => [keyOf(route), route] as const))('%s', (key, route) => {
  it.each(CALLERS)(
    'answers %s as its access declaration says, for its own and a foreign organization',
    async (caller) => {
      expect(
        FIXTURES[key],
        `add a FIXTURES entry for ${key} in tests/server/authorization-fixtures.ts`,
      ).toBeDefined()
      for (const target of ['own', 'foreign'] as const) {
        const result = await send(route, caller, target)
        if (!result) continue
        expect(
          result.status,
          `${key} as ${caller}, ${target} organization: ${result.body.slice(0, 200)}`,
        ).toBe(expectedStatus(route, caller, target))
      }
    },
  )
})

describe.each(routes.map((route) => [keyOf(route), route] as const))('%s with an API token', (key, route) => {
  it.each(Object.keys(TOKEN_CALLERS))(
    'answers a %s as a session of its role, within its scope',
    async (name) => {
      const caller = TOKEN_CALLERS[name]!
      // A dead token is refused before any route: the own request says it.
      const targets =
        caller.via === 'revoked' || caller.via === 'expired'
          ? (['own'] as const)
          : (['own', 'foreign'] as const)
      for (const target of targets) {
        const result = await send(route, name, target)
        if (!result) continue
        const expected = expectedTokenStatus(route, caller, target)
        expect(
          result.status,
          `${key} with a ${name}, ${target} organization: ${result.body.slice(0, 200)}`,
        ).toBe(expected)
        if (expected === 403) expect(JSON.parse(result.body).error.code, key).toBe('forbidden')
      }
    },
  )
})
