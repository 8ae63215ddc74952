import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../contract/errors.ts'
import { WITHHELD_FROM_TOKENS } from '../../contract/permissions.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { openApiPath } from './openapi.ts'
import { codesNamedIn, operationErrors } from './openapi-errors.ts'

const t = setupTestApp()
const KNOWN = new Set<string>(Object.values(ErrorCode))
/** Answered for a path's other methods (with `Allow`), so on no operation of its own. */
const NOT_PER_OPERATION = new Set<string>([ErrorCode.methodNotAllowed])

type ErrorAnswer = { description: string; 'x-error-codes': string[]; content: unknown }

describe('the error codes of each operation in /api/openapi.json', () => {
  it('lists, for every error status of every operation, codes of contract/errors.ts in its schema', async () => {
    const document = await (await t.get('/api/openapi.json')).json()
    for (const route of t.registry.routes) {
      const operation = document.paths[openApiPath(route.path)][route.method]
      const where = `${route.method} ${route.path}`
      const errors = Object.entries(operation.responses as Record<string, ErrorAnswer>).filter(
        ([status]) => Number(status) >= 400,
      )
      expect(
        errors.map(([status]) => status),
        where,
      ).toEqual(expect.arrayContaining(['401', '429', '500']))
      for (const [status, answer] of errors) {
        expect(answer['x-error-codes'].length, `${where} ${status}`).toBeGreaterThan(0)
        for (const code of answer['x-error-codes'])
          expect(KNOWN.has(code), `${where} ${status} ${code}`).toBe(true)
        expect(JSON.stringify(answer.content)).toContain(JSON.stringify(answer['x-error-codes']))
      }
    }
  })

  it('derives them from the declaration: access, inputs, method, and the codes the route names', async () => {
    const document = await (await t.get('/api/openapi.json')).json()
    const codes = (path: string, method: string, status: number) =>
      document.paths[path][method].responses[status]?.['x-error-codes'] ?? []
    expect(codes('/keychains/{id}/transfers', 'post', 402)).toEqual([
      'subscription_required',
      'transfer_allowance_exceeded',
    ])
    expect(codes('/keychains/{id}/transfers', 'post', 409)).toContain('transfer_overlap')
    expect(codes('/keychains/{id}', 'delete', 403)).toEqual(['forbidden', 'origin_rejected'])
    expect(codes('/keychains', 'get', 400)).toEqual(['validation_failed', 'no_organization_selected'])
    expect(codes('/keychains', 'get', 403)).toEqual(['forbidden'])
    expect(codes('/scans', 'post', 422)).toEqual(['idempotency_key_reused'])
    expect(codes('/health', 'get', 404)).toEqual([])
    expect(codes('/health', 'get', 403)).toEqual([])
    expect(codes('/profile', 'get', 403)).toEqual(['forbidden'])
    expect(document.paths['/profile'].get.responses[403].description).toContain('organization API token')
    expect(codes('/api-tokens', 'post', 403)).toEqual(['forbidden', 'origin_rejected'])
    expect(codes('/sessions', 'post', 401)).toEqual(['sign_in_failed', 'unauthenticated'])
  })

  it('names every code of contract/errors.ts on some operation', () => {
    const listed = new Set(
      t.registry.routes.flatMap((route) => operationErrors(route).map((error) => error.code)),
    )
    const unlisted = Object.values(ErrorCode).filter(
      (code) => !listed.has(code) && !NOT_PER_OPERATION.has(code),
    )
    expect(unlisted, 'name these codes in the descriptions of the responses that answer them').toEqual([])
  })

  it('lists each code a module’s own code throws on one of that module’s operations at least', () => {
    // A module whose service also answers through another module's routes (tags made when an order is paid,
    // members invited from an organization's page), or that mounts routes under more than one tag (orders: the
    // cart and the payment pages; reports: a member's page).
    const alsoAnswersFor: Record<string, string[]> = {
      tags: ['orders'],
      members: ['organizations'],
      orders: ['cart', 'payments'],
      reports: ['members'],
    }
    const modules = join(import.meta.dirname, '..', 'modules')
    const missing: string[] = []
    for (const folder of readdirSync(modules)) {
      const tags = [folder, ...(alsoAnswersFor[folder] ?? [])]
      const routes = t.registry.routes.filter((route) => tags.includes(route.tag))
      if (routes.length === 0) continue
      const listed = new Set(routes.flatMap((route) => operationErrors(route).map((error) => error.code)))
      const files = readdirSync(join(modules, folder)).filter(
        (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
      )
      for (const file of files) {
        const source = readFileSync(join(modules, folder, file), 'utf8')
        for (const [, name] of source.matchAll(/ErrorCode\.(\w+)/g)) {
          const code = ErrorCode[name as keyof typeof ErrorCode]
          if (code && !listed.has(code)) missing.push(`${folder}/${file}: ${code}`)
        }
      }
    }
    expect([...new Set(missing)], 'name these codes in the route descriptions of their module').toEqual([])
  })

  it('reads codes from a description: backticked or bare snake_case, known codes only', () => {
    expect(codesNamedIn('`tag_taken`: the tag is already on a key')).toEqual(['tag_taken'])
    expect(codesNamedIn('price_mismatch (with expectedUnitAmountInCents), or cart_empty')).toEqual([
      'price_mismatch',
      'cart_empty',
    ])
    expect(codesNamedIn('Not found, conflict or a made_up_code')).toEqual([])
  })
})

describe('the security of each operation', () => {
  it('is `[]` on public operations, a session or a bearer token elsewhere, a session only for token management and what no token may do', async () => {
    const document = await (await t.get('/api/openapi.json')).json()
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerToken', 'sessionCookie'])
    expect(document.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' })
    for (const route of t.registry.routes) {
      const { security } = document.paths[openApiPath(route.path)][route.method]
      const expected =
        route.access === 'public'
          ? []
          : route.credentials === 'session' ||
              (typeof route.access === 'object' && WITHHELD_FROM_TOKENS.includes(route.access.permission))
            ? [{ sessionCookie: [] }]
            : [{ sessionCookie: [] }, { bearerToken: [] }]
      expect(security, `${route.method} ${route.path}`).toEqual(expected)
    }
    expect(document.paths['/health'].get.security).toEqual([])
    expect(document.paths['/api-tokens'].post.security).toEqual([{ sessionCookie: [] }])
  })
})
