import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/** What is wrong with a keychain name (the contract allows 1 to 120 characters), or nothing. */
export function keychainNameProblem(value: string): MessageDescriptor | undefined {
  const name = value.trim()
  if (name === '') return msg`The name is required.`
  return name.length > 120 ? msg`At most 120 characters.` : undefined
}
