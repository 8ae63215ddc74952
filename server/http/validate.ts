import type { Context } from 'hono'
import * as v from 'valibot'
import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from './errors.ts'

export type AnySchema = v.GenericSchema

const NUL_MESSAGE = 'Text must not contain NUL characters.'

/**
 * The dot path of the first string holding U+0000 in a parsed value (plain objects and arrays), else null.
 * PostgreSQL stores no NUL in `text` or `jsonb`: without this check such input would be a 500.
 */
function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, path ? `${path}.${index}` : String(index))
      if (found !== null) return found
    }
    return null
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(key, path) ?? findNul(item, path ? `${path}.${key}` : key)
      if (found !== null) return found
    }
  }
  return null
}

/**
 * Parses with a contract schema; a failure is a 400 `validation_failed` led by the first issue's message. Every
 * input (params, headers, query, body) passes here, and any string of the parsed output holding U+0000 is
 * refused the same way, whatever the schema.
 */
export function parseInput<S extends AnySchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value)
  if (result.success) {
    const nul = findNul(result.output)
    if (nul === null) return result.output
    throw new ApiError(400, ErrorCode.validation, NUL_MESSAGE, {
      issues: [{ path: nul, message: NUL_MESSAGE }],
    })
  }
  const issues = result.issues.map((issue) => ({
    path: v.getDotPath(issue) ?? '',
    message: briefMessage(issue),
  }))
  throw new ApiError(400, ErrorCode.validation, issues[0]!.message, { issues })
}

const QUOTED_LIMIT = 40

/**
 * An issue's message without the whole input in it: valibot's own messages quote what they received
 * (`but received "…"`), which for a megabyte of text would send it back twice.
 */
function briefMessage(issue: v.BaseIssue<unknown>): string {
  const { message, received } = issue
  if (received.length <= QUOTED_LIMIT || !message.includes(received)) return message
  return message.replace(received, `${received.slice(0, QUOTED_LIMIT)}…`)
}

/**
 * How deep a JSON body may nest (arrays and objects): the contract's deepest body is a few levels, and any
 * depth the parser accepts would reach every recursive walk after it (this file's checks, valibot) and
 * overflow the stack far below the body size limit (20 KB of `[`).
 */
export const JSON_MAX_DEPTH = 32

/** The index of the quote closing the JSON string opened at `open` (one not escaped), or the text's end. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1)
  while (at !== -1) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++
    if (backslashes % 2 === 0) return at
    at = text.indexOf('"', at + 1)
  }
  return text.length
}

/**
 * Whether a JSON text nests deeper than `max`, read before parsing it: one pass, no recursion, strings skipped
 * whole (their brackets do not count). Malformed text is left to the parser.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (char === 0x22) index = closingQuote(text, index)
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

/** Whether every string in a parsed JSON value (keys included) is well-formed UTF-16: no lone surrogate. */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed()
  if (Array.isArray(value)) return value.every(wellFormed)
  if (value !== null && typeof value === 'object')
    return Object.entries(value).every(([key, item]) => key.isWellFormed() && wellFormed(item))
  return true
}

/** The request body as JSON; malformed JSON is a 400 `bad_request`, never a 500. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return undefined
  // Refused before parsing: the walks after the parser (below, the schemas) recurse once per level.
  if (nestsDeeperThan(text, JSON_MAX_DEPTH))
    throw new ApiError(
      400,
      ErrorCode.badRequest,
      `The request body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep.`,
    )
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError(400, ErrorCode.badRequest, 'The request body is not valid JSON.')
  }
  // `"\ud800"` is valid JSON but no text: it cannot be stored, compared or sent on as UTF-8.
  if (!wellFormed(value))
    throw new ApiError(400, ErrorCode.badRequest, 'The request body holds text that is not valid Unicode.')
  return value
}
