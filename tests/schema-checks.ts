import * as v from 'valibot'
import { expect } from 'vitest'

/** What a schema says to an input: its messages, none when valid. */
export const messages = (schema: v.GenericSchema, input: unknown) =>
  v.safeParse(schema, input).issues?.map((issue) => issue.message) ?? []

/** The first thing wrong (a pipe goes on checking after a failed step). */
export const first = (schema: v.GenericSchema, input: unknown) => messages(schema, input)[0]

/** A valid value comes out whole: no field of it is dropped or changed. */
export const keeps = (schema: v.GenericSchema, value: unknown) =>
  expect(v.parse(schema, value)).toEqual(value)

/** The first thing wrong as `path: message` (the path empty for the whole value), or null when valid. */
export const failure = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input)
  if (result.success) return null
  const [issue] = result.issues
  return `${v.getDotPath(issue) ?? ''}: ${issue.message}`
}
