// The keychain forms check a name by the contract's own schema: what they refuse is what the API refuses.
import { describe, expect, it } from 'vitest'
import { KEYCHAIN_NAME_MAX } from '../../contract/keychains.ts'
import { keychainNameProblem } from './keychain-name.ts'

const problem = (value: string) => keychainNameProblem(value)?.message

describe('a keychain name', () => {
  it('is required: blank is refused', () => {
    expect(problem('')).toBe('The name is required.')
    expect(problem('   ')).toBe('The name is required.')
  })

  it('has at most the contract’s length, counted once trimmed', () => {
    expect(problem('x'.repeat(KEYCHAIN_NAME_MAX))).toBeUndefined()
    expect(problem(` ${'x'.repeat(KEYCHAIN_NAME_MAX)} `)).toBeUndefined()
    expect(problem('x'.repeat(KEYCHAIN_NAME_MAX + 1))).toBe('At most {max} characters.')
  })

  it('has no control character', () => {
    expect(problem('Cave\tB')).toBe('Line breaks, tabs and other control characters are not allowed here.')
    expect(problem('Cave B')).toBeUndefined()
  })
})
