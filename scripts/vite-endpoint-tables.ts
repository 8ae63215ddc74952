import { type Plugin, parseAst } from 'vite'

// The endpoint tables (contract/endpoints/) name each operation's request schemas (params, query, body, headers) for the
// server and the OpenAPI document. The browser never validates what it sends (call() reads the method, the path
// and the answer's schema), yet those schemas would ride along into the shared contract chunk, onto every page.
// In the browser build each `endpoint({ … })` becomes the bare object without them (`endpoint` returns its spec
// as it is): their imports are then unused and left out of the bundle, and so is the call.
// call()'s types still come from the source, so a call is typed by the schemas the server checks.

const REQUEST_PARTS = new Set(['params', 'query', 'body', 'headers'])
const ENDPOINT_TABLE = /[\\/]contract[\\/]endpoints[\\/](?!endpoint\.ts)[^\\/]+\.ts$/

type Node = { type: string; start: number; end: number; [key: string]: unknown }

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

/** Whether `node` is an `endpoint({ … })` call, answering its spec. */
function endpointSpec(node: Node): Node | null {
  const callee = node.callee as Node | undefined
  const [spec] = (node.arguments as unknown[] | undefined) ?? []
  return node.type === 'CallExpression' &&
    callee?.type === 'Identifier' &&
    callee.name === 'endpoint' &&
    isNode(spec) &&
    spec.type === 'ObjectExpression'
    ? spec
    : null
}

const isRequestPart = (property: Node) => {
  const key = property.key as Node | undefined
  return key?.type === 'Identifier' && REQUEST_PARTS.has(key.name as string) && !property.computed
}

/** Each `endpoint({ … })` call of `node` with what it becomes: the bare spec, without its request schemas. */
function declarations(code: string, node: unknown, found: [number, number, string][] = []) {
  if (Array.isArray(node)) for (const each of node) declarations(code, each, found)
  if (!isNode(node)) return found
  const spec = endpointSpec(node)
  if (spec) {
    const kept = ((spec.properties as Node[] | undefined) ?? []).filter(
      (property) => !isRequestPart(property),
    )
    found.push([
      node.start,
      node.end,
      `({ ${kept.map((each) => code.slice(each.start, each.end)).join(', ')} })`,
    ])
    return found
  }
  for (const [name, child] of Object.entries(node)) if (name !== 'type') declarations(code, child, found)
  return found
}

/**
 * `code` with each endpoint declaration reduced to the object the browser reads (`endpoint` returns its spec as
 * it is): its method, path and answer schema, without the request schemas.
 */
export function withoutRequestSchemas(code: string): string {
  const found = declarations(code, parseAst(code, { lang: 'ts' })).sort((a, b) => b[0] - a[0])
  let result = code
  for (const [start, end, text] of found) result = `${result.slice(0, start)}${text}${result.slice(end)}`
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
