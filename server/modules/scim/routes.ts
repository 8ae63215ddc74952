import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as v from 'valibot'
import {
  SCIM_PAGE_MAX,
  SCIM_USER_SCHEMA,
  ScimListQuerySchema,
  ScimPatchSchema,
  ScimUserInputSchema,
} from '../../../contract/scim.ts'
import type { AppDeps } from '../../deps.ts'
import { bearerTokenOf } from '../../http/bearer.ts'
import { liveToken } from '../api-tokens/resolve.ts'
import { listOf, serviceProviderConfig, userResourceType, userSchema } from './discovery.ts'
import { ScimError, scimErrorResponse, scimInvalid, scimJson, scimNotFound } from './errors.ts'
import { parseScimFilter } from './filter.ts'
import { changeOfPatch } from './patch.ts'
import {
  changeScimUser,
  createScimUser,
  deleteScimUser,
  findScimUser,
  listScimUsers,
  type ScimCaller,
  scimLocation,
  toScimUser,
} from './users.ts'

export const SCIM_PATH = '/scim/v2'
/** A person is a few hundred bytes; an identity provider never needs more than this in one request. */
const SCIM_MAX_BODY_BYTES = 64 * 1024

type ScimEnv = { Variables: { caller: ScimCaller } }

const unauthorized = () =>
  new ScimError(401, 'An organization token of kind scim is required (Authorization: Bearer …).', undefined, {
    'WWW-Authenticate': 'Bearer realm="scim"',
  })

async function bodyOf<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  let json: unknown
  try {
    json = await request.json()
  } catch {
    throw new ScimError(400, 'The body is not JSON.', 'invalidSyntax')
  }
  const parsed = v.safeParse(schema, json)
  if (!parsed.success) throw scimInvalid(parsed.issues, 'invalidValue')
  return parsed.output
}

/**
 * SCIM 2.0 for an organization's identity provider (Entra ID, Okta, Google, Keycloak): its people as `User`
 * resources. Outside the API's middleware: the caller holds an organization token of kind `scim` (not a session),
 * answers are `application/scim+json` and errors are SCIM's (RFC 7644 §3.12).
 */
export function scimRoutes(deps: AppDeps): Hono<ScimEnv> {
  const scim = new Hono<ScimEnv>()
  const base = new URL(SCIM_PATH.slice(1), deps.config.publicUrl.replace(/\/?$/, '/')).toString()
  scim.onError((error, c) => {
    if (!(error instanceof ScimError)) deps.logger.error({ err: error }, 'SCIM request failed')
    return scimErrorResponse(c, error)
  })
  scim.notFound((c) => scimErrorResponse(c, scimNotFound()))
  scim.use(
    bodyLimit({
      maxSize: SCIM_MAX_BODY_BYTES,
      onError: (c) => scimErrorResponse(c, new ScimError(413, 'The request body is too large.')),
    }),
  )
  scim.use(async (c, next) => {
    const token = bearerTokenOf(c)
    const row = token ? await liveToken(deps, token, ['scim']) : null
    if (!row) throw unauthorized()
    c.set('caller', {
      organizationId: row.token.organizationId!,
      actorId: row.token.userId,
      role: row.token.role!,
    })
    await next()
  })

  scim.get('/ServiceProviderConfig', (c) => scimJson(c, serviceProviderConfig(base)))
  scim.get('/ResourceTypes', (c) => scimJson(c, listOf([userResourceType(base)])))
  scim.get('/ResourceTypes/User', (c) => scimJson(c, userResourceType(base)))
  scim.get('/Schemas', (c) => scimJson(c, listOf([userSchema(base)])))
  scim.get(`/Schemas/${SCIM_USER_SCHEMA}`, (c) => scimJson(c, userSchema(base)))

  scim.get('/Users', async (c) => {
    const parsed = v.safeParse(ScimListQuerySchema, c.req.query())
    if (!parsed.success) throw scimInvalid(parsed.issues, 'invalidValue')
    const { filter, startIndex, count } = parsed.output
    const page = await listScimUsers(deps, c.var.caller, {
      filter: filter === undefined ? null : parseScimFilter(filter),
      startIndex,
      count: Math.min(count, SCIM_PAGE_MAX),
    })
    return scimJson(c, page)
  })

  scim.post('/Users', async (c) => {
    const input = await bodyOf(c.req.raw, ScimUserInputSchema)
    const user = await createScimUser(deps, c.var.caller, input)
    c.header('Location', scimLocation(deps.config.publicUrl, user.id))
    return scimJson(c, user, 201)
  })

  scim.get('/Users/:id', async (c) => {
    const row = await findScimUser(deps.database.db, c.var.caller.organizationId, c.req.param('id'))
    return scimJson(c, toScimUser(row, deps.config.publicUrl))
  })

  scim.put('/Users/:id', async (c) => {
    const input = await bodyOf(c.req.raw, ScimUserInputSchema)
    const user = await changeScimUser(deps, c.var.caller, c.req.param('id'), {
      userName: input.userName,
      externalId: input.externalId ?? null,
      givenName: input.name?.givenName ?? '',
      familyName: input.name?.familyName ?? '',
      active: input.active,
    })
    return scimJson(c, user)
  })

  scim.patch('/Users/:id', async (c) => {
    const { Operations } = await bodyOf(c.req.raw, ScimPatchSchema)
    const user = await changeScimUser(deps, c.var.caller, c.req.param('id'), changeOfPatch(Operations))
    return scimJson(c, user)
  })

  scim.delete('/Users/:id', async (c) => {
    await deleteScimUser(deps, c.var.caller, c.req.param('id'))
    return c.body(null, 204)
  })

  return scim
}
