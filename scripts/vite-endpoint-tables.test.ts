import { describe, expect, it } from 'vitest'
import { withoutRequestSchemas } from './vite-endpoint-tables.ts'

describe('the browser build of an endpoint table', () => {
  it('drops each request schema and keeps the method, the path and the answer', () => {
    const table = `import { endpoint } from './endpoint.ts'
// Clés — « accents » before the table, so offsets are counted in characters, not bytes.
export const table = {
  list: endpoint({ method: 'get', path: '/things', query: ThingQuerySchema, response: ThingPageSchema }),
  create: endpoint({
    method: 'post',
    path: '/things/:id',
    params: IdParamsSchema,
    headers: ScanHeadersSchema,
    body: v.object({ name: v.string() }),
    response: ThingSchema,
  }),
}`
    expect(withoutRequestSchemas(table)).toBe(`import { endpoint } from './endpoint.ts'
// Clés — « accents » before the table, so offsets are counted in characters, not bytes.
export const table = {
  list: endpoint({ method: 'get', path: '/things', query: undefined, response: ThingPageSchema }),
  create: endpoint({
    method: 'post',
    path: '/things/:id',
    params: undefined,
    headers: undefined,
    body: undefined,
    response: ThingSchema,
  }),
}`)
  })

  it('leaves what is not an endpoint declaration alone', () => {
    const other = `const form = { body: BodySchema, query: 'q' }\nconst made = other({ params: ParamsSchema })\n`
    expect(withoutRequestSchemas(other)).toBe(other)
  })
})
