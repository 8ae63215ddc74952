import { type Plugin, parseAst } from 'vite'

// The endpoint tables (contract/endpoints/) name each operation's request schemas (params, query, body, headers) for the
// server and the OpenAPI document. The browser never validates what it sends (call() reads the method, the path
// and the answer's schema), yet those schemas would ride along into the shared contract chunk, onto every page.
// In the browser build each one is replaced by `undefined`: its import is then unused and left out of the bundle.
// call()'s types still come from the source, so a call is typed by the schemas the server checks.

const REQUEST_PARTS = new Set(['params', 'query', 'body', 'headers'])
const ENDPOINT_TABLE = /[\\/]contract[\\/]endpoints[\\/](?!endpoint\.ts)[^\\/]+\.ts$/

type Node = { type: string; start: number; end: number; [key: string]: unknown }

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

/** The ranges of the request schemas given to each `endpoint({ … })` call of `code`. */
function requestSchemaRanges(node: unknown, ranges: [number, number][] = []): [number, number][] {
  if (Array.isArray(node)) for (const each of node) requestSchemaRanges(each, ranges)
  if (!isNode(node)) return ranges
  const callee = node.callee as Node | undefined
  const [spec] = (node.arguments as unknown[] | undefined) ?? []
  if (
    node.type === 'CallExpression' &&
    callee?.type === 'Identifier' &&
    callee.name === 'endpoint' &&
    isNode(spec)
  )
    for (const property of (spec.properties as Node[] | undefined) ?? []) {
      const key = property.key as Node | undefined
      const value = property.value as Node | undefined
      if (key?.type === 'Identifier' && REQUEST_PARTS.has(key.name as string) && value && !property.computed)
        ranges.push([value.start, value.end])
    }
  for (const [name, child] of Object.entries(node)) if (name !== 'type') requestSchemaRanges(child, ranges)
  return ranges
}

/** `code` with the request schemas of its endpoint declarations replaced by `undefined`. */
export function withoutRequestSchemas(code: string): string {
  const ranges = requestSchemaRanges(parseAst(code, { lang: 'ts' })).sort((a, b) => b[0] - a[0])
  let result = code
  for (const [start, end] of ranges) result = `${result.slice(0, start)}undefined${result.slice(end)}`
  return result
}

/** The browser build's endpoint tables without their request schemas. */
export function browserEndpointTables(): Plugin {
  return {
    name: 'trousseau-browser-endpoint-tables',
    enforce: 'pre',
    transform(code, id) {
      if (!ENDPOINT_TABLE.test(id.split('?')[0] ?? id)) return null
      return { code: withoutRequestSchemas(code), map: null }
    },
  }
}
