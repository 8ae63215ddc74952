import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { EmailSchema, normalizedMailAddress } from './auth.ts'
import { TAG_CODE_PATTERN, TAG_PUBLIC_ID_PATTERN } from './tags.ts'

describe('tag codes and public ids', () => {
  it.each([
    ['AB-00001', true],
    ['ABCD-99999', true],
    ['A-00001', false],
    ['ABCDE-00001', false],
    ['AB-0001', false],
    ['AB-000001', false],
    ['ab-00001', false],
    ['12-00001', false],
    ['AB-0000A', false],
    ['xAB-00001', false],
    ['AB-00001x', false],
  ])('%s is a code: %s', (code, valid) => {
    expect(TAG_CODE_PATTERN.test(code)).toBe(valid)
  })

  it.each([
    ['abcdefghijklmnopqrst', true],
    ['234567abcdefghijklmn', true],
    ['abcdefghijklmnopqrs', false],
    ['abcdefghijklmnopqrstu', false],
    ['abcdefghijklmnopqrs1', false],
    ['ABCDEFGHIJKLMNOPQRST', false],
  ])('%s is a public id: %s', (id, valid) => {
    expect(TAG_PUBLIC_ID_PATTERN.test(id)).toBe(valid)
  })
})

describe('mail address bounds', () => {
  const domainOf = (length: number) => {
    // Labels of 63 characters joined by dots, ending with ".com", exactly `length` characters long.
    const labels: string[] = []
    let left = length - 4
    while (left > 0) {
      const size = Math.min(63, left)
      labels.push('d'.repeat(size))
      left -= size + 1
    }
    const domain = `${labels.join('.')}.com`
    return domain.slice(domain.length - length)
  }

  it('takes an address of 254 characters, not 255', () => {
    const local = 'l'.repeat(64)
    const fits = domainOf(254 - 65)
    expect(normalizedMailAddress(`${local}@${fits}`)).toBe(`${local}@${fits}`)
    expect(normalizedMailAddress(`${local}@d${fits}`)).toBeNull()
  })

  it('needs something before the @, and reads the domain after the last one', () => {
    expect(normalizedMailAddress('a@example.com')).toBe('a@example.com')
    expect(normalizedMailAddress('@example.com')).toBeNull()
    expect(normalizedMailAddress('example.com')).toBeNull()
  })

  it.each([
    ['a@example.com', 'a@example.com'],
    ['a@example.xn--p1ai', 'a@example.xn--p1ai'],
    ['a@example.c', null],
    ['a@example.1com', null],
    ['a@example.com1', null],
    ['a@example.xn--', null],
    ['a@exa\u0000mple.com', null],
    ['a@exa mple.com', null],
    ['a@ex%ample.com', null],
  ])('%j is %j', (input, address) => {
    expect(normalizedMailAddress(input)).toBe(address)
  })

  it('says why an address is refused', () => {
    expect(v.safeParse(EmailSchema, 42).issues?.[0]?.message).toBe('E-mail is required.')
    expect(v.safeParse(EmailSchema, '   ').issues?.[0]?.message).toBe('E-mail is required.')
    expect(v.safeParse(EmailSchema, `${'a'.repeat(250)}@b.fr`).issues?.[0]?.message).toBe(
      'E-mail is too long.',
    )
  })
})
