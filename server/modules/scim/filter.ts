import { ScimError } from './errors.ts'

/** The filters an identity provider sends to find a person before it creates them: one attribute, `eq`. */
export type ScimFilter = { attribute: 'userName' | 'externalId'; value: string }

const FILTER = /^\s*(userName|externalId)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i

/**
 * `userName eq "ada@example.com"` or `externalId eq "…"` (attribute names and the operator in any case, as RFC
 * 7644 §3.4.2.2 allows); anything else is refused with `invalidFilter` rather than answered unfiltered.
 */
export function parseScimFilter(filter: string): ScimFilter {
  const match = FILTER.exec(filter)
  if (!match) {
    throw new ScimError(
      400,
      'Only the filters userName eq "…" and externalId eq "…" are supported.',
      'invalidFilter',
    )
  }
  const attribute = match[1]!.toLowerCase() === 'username' ? 'userName' : 'externalId'
  const value = match[2]!.replace(/\\(.)/g, '$1')
  return { attribute, value: attribute === 'userName' ? value.trim().toLowerCase() : value }
}
