import { describe, expect, it } from 'vitest'
import { withoutRequestSchemas } from './vite-endpoint-tables.ts'

describe('the browser build of an endpoint table', () => {
  it('leaves each declaration its method, path and answer: no request schema, no call', () => {
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
  list: ({ method: 'get', path: '/things', response: ThingPageSchema }),
  create: ({ method: 'post', path: '/things/:id', response: ThingSchema }),
}`)
  })

  it('keeps an answer-less declaration, and a computed or spread property as it is', () => {
    const table = `export const table = {
  remove: endpoint({ method: 'delete', path: '/things/:id', params: IdParamsSchema }),
  odd: endpoint({ ...base, ['body']: BodySchema, 'query': QuerySchema }),
}`
    expect(withoutRequestSchemas(table)).toBe(`export const table = {
  remove: ({ method: 'delete', path: '/things/:id' }),
  odd: ({ ...base, ['body']: BodySchema, 'query': QuerySchema }),
}`)
  })

  it('leaves what is not an endpoint declaration alone', () => {
    const other = `const form = { body: BodySchema, query: 'q' }\nconst made = other({ params: ParamsSchema })\n`
    expect(withoutRequestSchemas(other)).toBe(other)
  })
})
