import * as v from 'valibot'
import { EmailSchema } from '../../../contract/auth.ts'
import type { ScimPatchOperation } from '../../../contract/scim.ts'
import { ScimError } from './errors.ts'
import type { ScimChange } from './users.ts'

const invalid = (detail: string) => new ScimError(400, detail, 'invalidValue')

/** `true`/`false`, or the strings "True"/"False" that Entra ID sends for `active`. */
function booleanOf(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true'
  throw invalid('active is true or false.')
}

function textOf(value: unknown, attribute: string, max = 100): string {
  if (typeof value !== 'string' || value.trim().length > max) {
    throw invalid(`${attribute} is a text of at most ${max} characters.`)
  }
  return value.trim()
}

function emailOf(value: unknown): string {
  const parsed = v.safeParse(EmailSchema, value)
  if (!parsed.success) throw invalid('userName must be an e-mail address.')
  return parsed.output
}

/** One attribute set (or removed, `value` undefined) into the change; attributes not kept here are ignored. */
function apply(change: ScimChange, path: string, value: unknown, remove: boolean): void {
  switch (path.toLowerCase()) {
    case 'active':
      if (remove) throw new ScimError(400, 'active cannot be removed.', 'mutability')
      change.active = booleanOf(value)
      return
    case 'username':
      if (remove) throw new ScimError(400, 'userName cannot be removed.', 'mutability')
      change.userName = emailOf(value)
      return
    case 'externalid':
      change.externalId = remove || value === null ? null : textOf(value, 'externalId', 256)
      return
    case 'name.givenname':
      change.givenName = remove ? '' : textOf(value, 'name.givenName')
      return
    case 'name.familyname':
      change.familyName = remove ? '' : textOf(value, 'name.familyName')
      return
    case 'name':
      if (remove || value === null) {
        change.givenName = ''
        change.familyName = ''
        return
      }
      if (typeof value !== 'object') throw invalid('name is an object.')
      for (const [key, part] of Object.entries(value)) apply(change, `name.${key}`, part, false)
      return
    default:
    // Attributes this product does not keep (titles, phone numbers, the enterprise extension…) are ignored,
    // as the provider sends every attribute it maps.
  }
}

/**
 * The change that PATCH operations (RFC 7644 §3.5.2) ask for: `replace`/`add` with a path (`active`,
 * `name.givenName`…) or without one (an object of attributes), `remove` with a path. Filtered paths
 * (`emails[type eq "work"].value`) are ignored with the other attributes not kept.
 */
export function changeOfPatch(operations: readonly ScimPatchOperation[]): ScimChange {
  const change: ScimChange = {}
  for (const operation of operations) {
    const remove = operation.op === 'remove'
    if (operation.path !== undefined) {
      if (!remove && operation.value === undefined)
        throw invalid(`${operation.op} ${operation.path} needs a value.`)
      apply(change, operation.path, operation.value, remove)
      continue
    }
    if (remove) throw new ScimError(400, 'remove needs a path.', 'noTarget')
    if (typeof operation.value !== 'object' || operation.value === null || Array.isArray(operation.value)) {
      throw invalid(`${operation.op} without a path takes an object of attributes.`)
    }
    for (const [path, value] of Object.entries(operation.value)) apply(change, path, value, false)
  }
  return change
}
