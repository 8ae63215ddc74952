import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'

const t = setupTestApp()

describe('a known path with a method it does not answer', () => {
  it.each([
    ['PUT', '/api/keychains', 'GET, HEAD, POST'],
    ['PUT', '/api/keychains/00000000-0000-4000-8000-000000000000', 'DELETE, GET, HEAD, PATCH'],
    ['DELETE', '/api/openapi.json', 'GET, HEAD'],
    ['GET', '/api/scans', 'POST'],
    ['PATCH', '/api/transfers/00000000-0000-4000-8000-000000000000/pickups', 'POST'],
  ])('%s %s is a 405 listing %s in Allow', async (method, path, allow) => {
    const { admin } = await organizationWithAdmin(t)
    const response = await t.request(path, { method, cookie: admin.cookie })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe(allow)
    expect((await response.json()).error.code).toBe('method_not_allowed')
  })

  it('leaves unknown paths a 404', async () => {
    const response = await t.request('/api/keychains/a/b/c', { method: 'GET' })
    expect(response.status).toBe(404)
    expect(response.headers.get('allow')).toBeNull()
    expect((await response.json()).error.code).toBe('not_found')
  })
})
