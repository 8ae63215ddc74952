// Property-based: every operation of the API document, fed generated path parameters, query strings, headers
// and JSON bodies (mostly well-typed, often hostile: lone surrogates, control characters, huge or impossible
// dates, cursors holding them, wrong types; nested and sized at the edges of the limits), never answers 5xx.
// Runs on PGlite, and on PostgreSQL in CI.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeOrder, makeTags } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { scheduledTransfer } from '../../tests/server/transfers.ts'
import { IMPORT_MAX_BODY_BYTES, MAX_BODY_BYTES } from './request-guards.ts'
import { JSON_MAX_DEPTH } from './validate.ts'

const t = setupTestApp()

type Json = Record<string, unknown>
type Operation = { method: string; path: string; spec: Json }

/** Strings that broke servers before: lone surrogates, NUL and control characters, dates out of range. */
const HOSTILE_STRINGS = [
  '\ud800x',
  'x\udfff',
  'a\u0000b',
  'line\r\nbreak',
  '\u202e\u0007',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-000001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2030-02-30',
  '99999-01-01',
  '1e400',
  '-1',
  'NaN',
  '__proto__',
  '../../etc/passwd',
  ' ',
]

/** A path segment; a lone surrogate, which no URL can carry, travels as the bytes a lax client would send. */
function encodePathValue(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return `%ED%A0%80${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}%FF`
  }
}

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const HOSTILE_CURSORS = [
  cursorOf(['+275760-09-13T00:00:00.001Z', '00000000-0000-4000-8000-000000000000']),
  cursorOf(['0000-01-01T00:00:00Z', 'x']),
  cursorOf(['99999-01-01', '\ud800']),
  cursorOf([1e308, null]),
  cursorOf({ a: 1 }),
  'not base64 !',
]

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(5000)) },
)

/** Realistic strings, of which those matching a string schema's pattern and length are offered for it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SAMPLES = [
  '20',
  '2030-01-15',
  '2030-01-17',
  '2030-01-15T10:00:00.000Z',
  'AGC',
  'Cave du 14',
  'someone@example.com',
  "o'brien@example.com",
  '#112233',
  '#fde68a',
  'fr',
  'en',
  'FR',
  '75002',
  'pay',
  'MONTHLY',
]

function stringsFor(schema: Json): fc.Arbitrary<string> {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200
  if (schema.format === 'email') return fc.constantFrom('someone@example.com', "o'brien@example.com")
  if (schema.format === 'uuid') return fc.constantFrom(...ids.filter((id) => UUID.test(id)))
  const fitting = [...SAMPLES, ...ids].filter(
    (sample) => (!pattern || pattern.test(sample)) && sample.length >= min && sample.length <= max,
  )
  const free = fc.string({ minLength: Math.max(min, 1), maxLength: Math.min(max, 30) })
  return fitting.length > 0 ? fc.oneof(fc.constantFrom(...fitting), free) : free
}

/** A value for a JSON schema: well-typed most of the time, now and then hostile or of the wrong type. */
function valueFor(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(fc.constant(null), fc.integer(), hostileString, fc.constant([]), fc.constant({}))
  if (!schema || depth > 4) return wrong
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (variants) return fc.oneof(...variants.map((variant) => valueFor(variant, depth + 1)))
  if (schema.const !== undefined) return fc.oneof({ weight: 12, arbitrary: fc.constant(schema.const) }, wrong)
  if (Array.isArray(schema.enum))
    return fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...(schema.enum as unknown[])) }, wrong)
  const typed = (() => {
    switch (schema.type) {
      case 'string':
        return fc.oneof({ weight: 4, arbitrary: stringsFor(schema) }, { weight: 1, arbitrary: hostileString })
      case 'integer':
      case 'number': {
        const min = typeof schema.minimum === 'number' ? schema.minimum : -5
        const max = typeof schema.maximum === 'number' ? schema.maximum : 200
        return fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, 1e6) }) },
          { weight: 1, arbitrary: fc.constantFrom(0, 99_999, 100_000, 2 ** 31, 2 ** 53, 1e308, 0.5, -1) },
        )
      }
      case 'boolean':
        return fc.boolean()
      case 'array':
        return fc.array(valueFor(schema.items as Json | undefined, depth + 1), { maxLength: 3 })
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, Json>
        return fc.record(
          Object.fromEntries(
            Object.entries(properties).map(([name, property]) => [name, valueFor(property, depth + 1)]),
          ),
          { requiredKeys: (schema.required ?? []) as string[] },
        )
      }
      default:
        return fc.anything({ maxDepth: 2 })
    }
  })()
  return fc.oneof({ weight: 12, arbitrary: typed }, { weight: 1, arbitrary: wrong })
}

function operationsOf(document: Json): Operation[] {
  const paths = document.paths as Record<string, Record<string, Json>>
  const [server] = document.servers as Array<{ url: string }>
  const base = new URL(server!.url, 'http://localhost').pathname.replace(/\/$/, '')
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => ({
      method: method.toUpperCase(),
      path: `${base}${path}`,
      spec,
    })),
  )
}

let document: Json
let ids: string[]
let resources: { organizationId: string; publicId: string }
let people: Array<{ email: string }>

beforeAll(async () => {
  const world = await scheduledTransfer(t)
  const [freeTag] = await makeTags(t, world.organization.id, 1, 'FRE')
  const order = await makeOrder(t, world.organization.id, { createdByUserId: world.admin.profile.id })
  ids = [
    world.organization.id,
    world.keychain.id,
    world.tag.id,
    world.tag.publicId,
    world.tag.code,
    freeTag!.id,
    world.transfer.id,
    world.member.id,
    world.contact.id,
    order.id,
    '00000000-0000-4000-8000-000000000000',
  ]
  resources = { organizationId: world.organization.id, publicId: world.tag.publicId }
  people = [world.admin, world.member, world.contact].map((person) => ({ email: person.email }))
  document = await (await t.get('/api/openapi.json')).json()
})

/** A request for one operation: path parameters, query, headers and body as its document describes them. */
function requestFor(operation: Operation, cookies: string[]) {
  const parameters = (operation.spec.parameters ?? []) as Array<{ name: string; in: string; schema: Json }>
  // An empty, `.` or `..` segment would name another path (the collection, the parent), not this operation.
  const pathValue = (schema: Json) =>
    fc
      .oneof({ weight: 8, arbitrary: stringsFor(schema) }, { weight: 1, arbitrary: hostileString })
      .filter((value) => value !== '' && value !== '.' && value !== '..')
  const queryValue = (name: string, schema: Json) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      {
        weight: 2,
        arbitrary: name === 'cursor' ? fc.constantFrom(...HOSTILE_CURSORS) : valueFor(schema).map(String),
      },
      { weight: 1, arbitrary: hostileString },
    )
  const headerValue = (schema: Json) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: Array.isArray(schema.enum)
          ? fc.constantFrom(...(schema.enum as string[]))
          : schema.format === 'date-time'
            ? fc.date({ noInvalidDate: true }).map((date) => date.toISOString())
            : fc.uuid(),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((value) => /^[\x20-\x7e]*$/.test(value))),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
    )
  const bodySchema = (operation.spec.requestBody as Json | undefined)?.content as
    | Record<string, { schema: Json }>
    | undefined
  return fc.record({
    path: fc.record(
      Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p.schema)])),
    ),
    query: fc.record(
      Object.fromEntries(
        parameters.filter((p) => p.in === 'query').map((p) => [p.name, queryValue(p.name, p.schema)]),
      ),
    ),
    headers: fc.record(
      Object.fromEntries(
        parameters.filter((p) => p.in === 'header').map((p) => [p.name, headerValue(p.schema)]),
      ),
    ),
    body: bodySchema ? valueFor(bodySchema['application/json']?.schema) : fc.constant(undefined),
    cookie: fc.constantFrom(...cookies),
  })
}

describe('no input makes the API answer 5xx', () => {
  it('holds for every operation of the API document', async () => {
    const operations = operationsOf(document)
    expect(operations.length).toBeGreaterThan(40)
    const failures: string[] = []
    const reached: string[] = []
    const missing: string[] = []
    for (const operation of operations) {
      // Fresh sessions for each operation: one of them is signing out.
      const cookies = [
        ...(await Promise.all(people.map(async ({ email }) => (await t.signIn(email)).cookie))),
        '',
      ]
      const statuses = new Set<number>()
      const result = await fc.check(
        fc.asyncProperty(requestFor(operation, cookies), async (input) => {
          const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodePathValue(String((input.path as Record<string, unknown>)[name])),
          )
          const query = new URLSearchParams()
          for (const [name, value] of Object.entries(input.query))
            if (value !== undefined) query.set(name, String(value))
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(input.headers))
            if (typeof value === 'string') headers[name] = value
          const response = await t.request(`${path}${query.size > 0 ? `?${query}` : ''}`, {
            method: operation.method,
            headers,
            cookie: input.cookie || undefined,
            ...(input.body === undefined ? {} : { json: input.body }),
          })
          statuses.add(response.status)
          const text = await response.text()
          if (response.status >= 500) throw new Error(`${response.status} ${text.slice(0, 200)}`)
        }),
        { numRuns: 50, seed: 42 },
      )
      if (result.failed)
        failures.push(
          `${operation.method} ${operation.path}: ${String(result.errorInstance)}\n  ${fc.stringify(result.counterexample).slice(0, 400)}`,
        )
      const declared = Object.keys(operation.spec.responses as Json)
      const undeclared = [...statuses].filter((status) => !declared.includes(String(status)))
      if (undeclared.length > 0)
        missing.push(`${operation.method} ${operation.path}: ${undeclared.join(' ')}`)
      // The generated inputs reach the operation's handler, not only its guards.
      reached.push(`${operation.method} ${operation.path}: ${[...statuses].sort().join(' ')}`)
    }
    expect(failures).toEqual([])
    // Every status an operation answered is one its document declares.
    expect(missing).toEqual([])
    const onlyRefused = reached.filter((line) => !/ (200|201|202|204|303|402|404|409|422)\b/.test(line))
    expect(onlyRefused.length, onlyRefused.join('\n')).toBeLessThan(operations.length / 3)
  }, 240_000)
})

type Nesting = 'array' | 'object' | 'mixed' | 'unclosed'

/** JSON text nesting `depth` levels (or, unclosed, `depth` opening brackets and nothing else). */
function nestedText(nesting: Nesting, depth: number): string {
  switch (nesting) {
    case 'array':
      return `${'['.repeat(depth)}${']'.repeat(depth)}`
    case 'object':
      return `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`
    case 'mixed':
      return `${'[{"a":'.repeat(Math.ceil(depth / 2))}null${'}]'.repeat(Math.ceil(depth / 2))}`
    case 'unclosed':
      return '['.repeat(depth)
  }
}

/** Bytes a level of each nesting takes, to fill a body up to its limit. */
const LEVEL_BYTES: Record<Nesting, number> = { array: 2, object: 6, mixed: 4, unclosed: 1 }

/**
 * A JSON body nesting arrays and objects around the depth limit, far beyond it (the 10,000 levels that once
 * overflowed the stack), or as deep as the body limit lets it; alone, as a field of the operation's body, or
 * padded so the body is one byte short of its size limit, at it, or one byte over. `refusable`: deeper than
 * the limit and within the size limit, so a 400 once the body is read.
 */
function deepBodyFor(operation: Operation) {
  const limit = operation.path.startsWith('/api/keychain-imports') ? IMPORT_MAX_BODY_BYTES : MAX_BODY_BYTES
  const schema = (operation.spec.requestBody as Json).content as Record<string, { schema: Json }>
  const properties = Object.keys((schema['application/json']?.schema.properties ?? {}) as Json)
  const field = properties[0] ?? 'a'
  const depth = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(JSON_MAX_DEPTH - 1, JSON_MAX_DEPTH, JSON_MAX_DEPTH + 1) },
    { weight: 3, arbitrary: fc.constantFrom(10_000, 100_000) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
    { weight: 1, arbitrary: fc.constant('fill' as const) },
  )
  return fc
    .record({
      nesting: fc.constantFrom<Nesting>('array', 'object', 'mixed', 'unclosed'),
      depth,
      placement: fc.constantFrom('whole', 'field', 'padded'),
      edge: fc.constantFrom(-1, 0, 1),
    })
    .map(({ nesting, depth, placement, edge }) => {
      const levels = depth === 'fill' ? Math.floor((limit - 64) / LEVEL_BYTES[nesting]) : depth
      const inner = nestedText(nesting, levels)
      const deepest = nesting === 'mixed' ? 2 * Math.ceil(levels / 2) : levels
      const wrapped = `{${JSON.stringify(field)}:${inner}}`
      const text =
        placement === 'whole'
          ? inner
          : placement === 'field' || wrapped.length + 16 > limit + edge
            ? wrapped
            : `{"padding":"${'x'.repeat(limit + edge - wrapped.length - 16)}",${wrapped.slice(1)}`
      const depthOf = placement === 'whole' ? deepest : deepest + 1
      return { text, refusable: depthOf > JSON_MAX_DEPTH && Buffer.byteLength(text) <= limit }
    })
}

/** A real resource for the path parameters an access check or a schema looks at before the body is read. */
function pathFor(operation: Operation): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'publicId') return resources.publicId
    if (operation.path.startsWith('/api/organizations/')) return resources.organizationId
    return ids[ids.length - 1]!
  })
}

describe('no body nesting or size makes the API answer 5xx', () => {
  it('holds for every operation that takes a body, signed in and signed out', async () => {
    const operations = operationsOf(document).filter((operation) => operation.spec.requestBody)
    expect(operations.length).toBeGreaterThan(30)
    const failures: string[] = []
    const neverRead: string[] = []
    for (const operation of operations) {
      const [admin, ...others] = await Promise.all(
        people.map(async ({ email }) => (await t.signIn(email)).cookie),
      )
      // Mostly the admin, whom the access checks let through to the body; the others and nobody too.
      const callers = fc.oneof(
        { weight: 4, arbitrary: fc.constant(admin!) },
        { weight: 2, arbitrary: fc.constantFrom(...others) },
        { weight: 2, arbitrary: fc.constant('') },
      )
      let read = false
      const result = await fc.check(
        fc.asyncProperty(deepBodyFor(operation), callers, async (body, cookie) => {
          const response = await t.request(pathFor(operation), {
            method: operation.method,
            body: body.text,
            headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            cookie: cookie || undefined,
          })
          const text = await response.text()
          if (response.status >= 500) throw new Error(`${response.status} ${text.slice(0, 200)}`)
          if (response.status < 400) return
          const { error } = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }
          if (typeof error?.code !== 'string' || typeof error.message !== 'string')
            throw new Error(`${response.status} without a code and a message: ${text.slice(0, 200)}`)
          if (body.refusable && response.status === 400) read = true
        }),
        { numRuns: 16, seed: 42, endOnFailure: true },
      )
      if (result.failed) {
        const [body, cookie] = result.counterexample ?? []
        failures.push(
          `${operation.method} ${operation.path} (${cookie ? 'signed in' : 'signed out'}): ${String(result.errorInstance)}\n  body of ${body?.text.length} characters: ${body?.text.slice(0, 60)}…`,
        )
      } else if (!read) neverRead.push(`${operation.method} ${operation.path}`)
    }
    expect(failures).toEqual([])
    // Each operation read a body nested past the limit (and refused it), not only answered its guards.
    expect(neverRead).toEqual([])
  }, 240_000)
})
