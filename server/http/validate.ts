import type { Context } from 'hono'
import * as v from 'valibot'
import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from './errors.ts'

export type AnySchema = v.GenericSchema

/** Parses with a contract schema; a failure is a 400 `validation_failed` led by the first issue's message. */
export function parseInput<S extends AnySchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value)
  if (result.success) return result.output
  const issues = result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message }))
  throw new ApiError(400, ErrorCode.validation, result.issues[0].message, { issues })
}

/** The request body as JSON; malformed JSON is a 400 `bad_request`, never a 500. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, ErrorCode.badRequest, 'The request body is not valid JSON.')
  }
}

export async function validJson<S extends AnySchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  return parseInput(schema, await readJson(c))
}

export function validQuery<S extends AnySchema>(c: Context, schema: S): v.InferOutput<S> {
  return parseInput(schema, c.req.query())
}

export function validParams<S extends AnySchema>(c: Context, schema: S): v.InferOutput<S> {
  return parseInput(schema, c.req.param())
}
