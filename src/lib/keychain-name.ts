import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import * as v from 'valibot'
import { KEYCHAIN_NAME_MAX, KeychainNameSchema } from '../../contract/keychains.ts'

/** What is wrong with a keychain name by the contract's rule (the API's), or nothing. */
export function keychainNameProblem(value: string): MessageDescriptor | undefined {
  const result = v.safeParse(KeychainNameSchema, value)
  if (result.success) return undefined
  const max = KEYCHAIN_NAME_MAX
  switch (result.issues[0].type) {
    case 'max_length':
      return msg`At most ${max} characters.`
    case 'non_empty':
    case 'string':
      return msg`The name is required.`
    default:
      return msg`Line breaks, tabs and other control characters are not allowed here.`
  }
}
