import { beforeAll, describe, expect, it } from 'vitest'
import { ROLE_PERMISSIONS, ROLES } from '../../contract/permissions.ts'
import { createApp } from '../app.ts'
import type { Database } from '../db/client.ts'
import type { AppDeps } from '../deps.ts'
import { createLogger } from '../logger.ts'
import {
  buildWorld,
  type Caller,
  FIXTURES,
  MATRIX_OPERATOR,
  MATRIX_STRIPE,
  type World,
} from '../test/authorization-fixtures.ts'
import { TestClock } from '../test/clock.ts'
import { setupTestApp, testConfig } from '../test/harness.ts'
import { CapturedMailer } from '../test/mailer.ts'
import type { RouteSpec } from './openapi.ts'

/**
 * For every registered route, every role of the caller's own organization, a platform operator (who is a
 * MEMBER there) and a signed-out caller, against their own organization and a foreign one: the status the
 * route's access declaration and ROLE_PERMISSIONS call for. A new route without a FIXTURES entry fails here.
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
 */
function expectedStatus(route: RouteSpec, caller: Caller, target: 'own' | 'foreign'): number {
  const { access } = route
  const success = successStatus(route)
  if (access === 'public') return success
  if (caller === 'signed out') return 401
  if (access === 'operator') return caller === 'operator' ? success : 403
  if (access === 'signedIn') return target === 'foreign' ? 404 : success
  if (access.operators && caller === 'operator') return success
  const role = caller === 'operator' ? 'MEMBER' : caller
  const permitted = ROLE_PERMISSIONS[role].includes(access.permission)
  if (access.organization === 'path' && target === 'foreign') return 404
  if (!permitted) return 403
  return target === 'foreign' ? 404 : success
}

const t = setupTestApp({ config: { operatorEmails: [MATRIX_OPERATOR], ...MATRIX_STRIPE } })
let world: World
beforeAll(async () => {
  world = await buildWorld(t)
})

async function send(route: RouteSpec, caller: Caller, target: 'own' | 'foreign') {
  const fixture = FIXTURES[keyOf(route)]!
  const build = target === 'own' ? fixture.own : fixture.foreign
  if (typeof build !== 'function') return null
  const request = await build(world, caller === 'signed out' ? null : world.callers[caller])
  let cookie: string | undefined
  if (caller !== 'signed out') {
    cookie = request.throwawaySession
      ? (await t.signIn(world.callers[caller].email)).cookie
      : world.callers[caller].cookie
  }
  const response = await t.request(request.path, {
    method: route.method.toUpperCase(),
    cookie,
    json: request.json,
    body: request.body,
    headers: request.headers,
  })
  return { status: response.status, body: await response.text() }
}

describe('the route table', () => {
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
        `add a FIXTURES entry for ${key} in server/test/authorization-fixtures.ts`,
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
