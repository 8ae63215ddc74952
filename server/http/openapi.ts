import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema'
import { isMailAddress } from '../../contract/auth.ts'
import { withoutControlCharacters } from '../../contract/common.ts'
import { ApiErrorSchema } from '../../contract/errors.ts'
import { existingCalendarDate } from '../../contract/transfers.ts'
import { describeAccess, requiresSession, takesSessionOnly } from './access.ts'
import { errorsByStatus } from './openapi-errors.ts'
import type { RouteRegistry, RouteSpec } from './route-spec.ts'
import type { AnySchema } from './validate.ts'

/** `/organizations/:id` → `/organizations/{id}` */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

type JsonObject = Record<string, unknown>

/**
 * The contract's own checks, as the document states them (valibot cannot say what a custom check means; the
 * browser bundle carries no documentation for them).
 */
const STATED_CHECKS = new Map<unknown, JsonObject>([
  [withoutControlCharacters, { pattern: '^\\P{Cc}*$' }],
  [existingCalendarDate, { format: 'date' }],
  [isMailAddress, { format: 'email' }],
])

const inputSchema = (schema: AnySchema) => convert(schema, 'input')
const outputSchema = (schema: AnySchema) => convert(schema, 'output')

function convert(schema: AnySchema, typeMode: ConversionConfig['typeMode']): JsonObject {
  const { $schema: _, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const stated = STATED_CHECKS.get(valibotAction)
      return stated ? { ...jsonSchema, ...stated } : undefined
    },
  })
  return rest as JsonObject
}

const errorRef = { $ref: '#/components/schemas/ApiError' }

export const operationIdOf = (spec: Pick<RouteSpec, 'method' | 'path'>) =>
  `${spec.method}${openApiPath(spec.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`

function parameters(spec: RouteSpec): JsonObject[] {
  const out: JsonObject[] = []
  for (const [where, schema] of [
    ['path', spec.params],
    ['header', spec.headers],
    ['query', spec.query],
  ] as const) {
    if (!schema) continue
    const json = inputSchema(schema)
    const properties = (json.properties ?? {}) as Record<string, JsonObject>
    const required = new Set((json.required ?? []) as string[])
    for (const [name, property] of Object.entries(properties)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: property })
    }
  }
  return out
}

/** Who may call it: nobody needed (`[]`), a session only, or a session or an API token. */
function security(spec: RouteSpec): JsonObject[] {
  if (!requiresSession(spec.access)) return []
  if (takesSessionOnly(spec.access, spec.credentials)) return [{ sessionCookie: [] }]
  return [{ sessionCookie: [] }, { bearerToken: [] }]
}

/** An error answer: the `ApiError` body with its `code` narrowed to those this status answers here. */
function errorContent(codes: readonly string[]): JsonObject {
  return {
    'application/json': {
      schema: {
        allOf: [
          errorRef,
          {
            type: 'object',
            properties: { error: { type: 'object', properties: { code: { enum: codes } } } },
          },
        ],
      },
    },
  }
}

function operation(spec: RouteSpec): JsonObject {
  const responses: JsonObject = {}
  for (const [status, response] of Object.entries(spec.responses)) {
    if (Number(status) >= 400) continue
    responses[status] = response.schema
      ? {
          description: response.description,
          content: { 'application/json': { schema: outputSchema(response.schema) } },
        }
      : { description: response.description }
  }
  for (const [status, { codes, cases }] of errorsByStatus(spec)) {
    responses[status] = {
      description: cases.map((error) => `\`${error.code}\`: ${error.when}`).join('; '),
      content: errorContent(codes),
      'x-error-codes': codes,
    }
  }
  const { access } = spec
  return {
    operationId: operationIdOf(spec),
    summary: spec.summary,
    description: describeAccess(access, spec.credentials),
    tags: [spec.tag],
    'x-access': access,
    security: security(spec),
    ...(parameters(spec).length > 0 ? { parameters: parameters(spec) } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: inputSchema(spec.body) } },
          },
        }
      : {}),
    responses,
  }
}

/** OpenAPI 3.1 built from the same registry the routes validate with, so the two cannot drift. */
export function openApiDocument(
  registry: RouteRegistry,
  info: { version: string; cookieName: string; serverUrl: string },
): JsonObject {
  const paths: Record<string, JsonObject> = {}
  for (const spec of registry.routes) {
    const path = openApiPath(spec.path)
    paths[path] = { ...paths[path], [spec.method]: operation(spec) }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Trousseau API', version: info.version },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { ApiError: outputSchema(ApiErrorSchema) },
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: info.cookieName,
          description: 'The session a sign-in sets. State-changing requests must come from a trusted Origin.',
        },
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'trs_<prefix>_<secret>',
          description:
            'A personal or organization API token (profile or organization page): `Authorization: Bearer <token>`. No Origin check; rate-limited per token.',
        },
      },
    },
  }
}
