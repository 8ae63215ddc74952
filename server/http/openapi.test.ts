import { describe, expect, it } from 'vitest'
import { endpointTables } from '../../contract/endpoints/all.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { openApiPath } from './openapi.ts'

const t = setupTestApp()

describe('GET /api/openapi.json', () => {
  it('lists every registered route with its method', async () => {
    const response = await t.get('/api/openapi.json')
    expect(response.status).toBe(200)
    const document = await response.json()
    expect(document.openapi).toBe('3.1.0')
    expect(t.registry.routes.length).toBeGreaterThanOrEqual(7)
    for (const route of t.registry.routes) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method]
      expect(operation, `${route.method} ${route.path}`).toBeDefined()
      expect(operation.summary).toBe(route.summary)
    }
  })

  it('states what the server enforces: page bounds, calendar days, e-mail addresses, no control characters', async () => {
    const document = await (await t.get('/api/openapi.json')).json()
    const limit = document.paths['/keychains'].get.parameters.find(
      (p: { name: string }) => p.name === 'limit',
    )
    const bounds = new RegExp(limit.schema.pattern)
    expect(['1', '20', '99', '100'].every((value) => bounds.test(value))).toBe(true)
    expect(['0', '101', '007', '-1', '1.5', ''].some((value) => bounds.test(value))).toBe(false)

    const transfer =
      document.paths['/keychains/{id}/transfers'].post.requestBody.content['application/json'].schema
    const variants = JSON.stringify(transfer)
    expect(transfer.properties.fromDate.format).toBe('date')
    expect(transfer.properties.toDate.format).toBe('date')
    expect(variants).toContain('"format":"email"')

    const keychain = document.paths['/keychains'].post.requestBody.content['application/json'].schema
    const noControls = new RegExp(keychain.properties.name.pattern, 'u')
    expect(noControls.test('Cave du 14 – bâtiment B')).toBe(true)
    expect(noControls.test('Cave\r\nB')).toBe(false)
  })

  it('holds the sign-in routes with their schemas', async () => {
    const document = await (await t.get('/api/openapi.json')).json()
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/health',
        '/email-tokens',
        '/sessions',
        '/session',
        '/profile',
        '/openapi.json',
      ]),
    )
    const sessions = document.paths['/sessions'].post
    expect(sessions.requestBody.content['application/json'].schema.anyOf).toHaveLength(2)
    expect(Object.keys(sessions.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '415']),
    )
    expect(document.paths['/profile'].get.security).toEqual([{ sessionCookie: [] }, { bearerToken: [] }])
    // No API token manages members or webhooks (403 to one): the document offers a session only there.
    expect(document.paths['/webhooks'].post.security).toEqual([{ sessionCookie: [] }])
    expect(document.paths['/organizations/{id}/users'].post.security).toEqual([{ sessionCookie: [] }])
    expect(document.paths['/keychains'].post.security).toEqual([{ sessionCookie: [] }, { bearerToken: [] }])
    expect(
      document.paths['/profile'].patch.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('phoneNumber')
    expect(document.components.securitySchemes.sessionCookie.name).toBe('session')
  })

  it('records each route’s access declaration and the answers it implies', async () => {
    const document = await (await t.get('/api/openapi.json')).json()
    for (const route of t.registry.routes) {
      const operation = document.paths[openApiPath(route.path)][route.method]
      expect(operation['x-access'], `${route.method} ${route.path}`).toEqual(route.access)
    }
    const remove = document.paths['/keychains/{id}'].delete
    expect(remove.description).toBe(
      'Requires `delete__keychain` in the selected organization. A session, a personal API token (as its user), or an organization token of that organization (with its role).',
    )
    expect(Object.keys(remove.responses)).toEqual(expect.arrayContaining(['204', '400', '401', '403', '404']))
    expect(document.paths['/tags/{publicId}'].get.security).toEqual([])
    const scan = document.paths['/scans'].post
    expect(scan.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'idempotency-key', in: 'header', required: true }),
      ]),
    )
  })

  it('mounts each operation of the contract’s endpoint tables, and no other but the document itself', () => {
    const declared = Object.values(endpointTables).flatMap((table) =>
      Object.values(table).map((spec) => `${spec.method} ${spec.path}`),
    )
    const mounted = t.registry.routes.map((route) => `${route.method} ${route.path}`)
    expect([...mounted].sort()).toEqual([...declared, 'get /openapi.json'].sort())
    expect(mounted).not.toContain('get /docs')
  })

  it('turns Hono path parameters into OpenAPI ones', () => {
    expect(openApiPath('/organizations/:id/users/:userId')).toBe('/organizations/{id}/users/{userId}')
  })
})
