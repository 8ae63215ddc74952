import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { EmailSchema, normalizedMailAddress } from './auth.ts'

describe('mail addresses', () => {
  it.each([
    ["o'brien@example.com", "o'brien@example.com"],
    ['claire+keys@example.com', 'claire+keys@example.com'],
    ['first.last@mail.agence.example.fr', 'first.last@mail.agence.example.fr'],
    ['x@xn--mller-kva.de', 'x@xn--mller-kva.de'],
    ['contact@example.xn--p1ai', 'contact@example.xn--p1ai'],
    ['a_b-c@sub-domain.example.org', 'a_b-c@sub-domain.example.org'],
    [`${'l'.repeat(64)}@example.com`, `${'l'.repeat(64)}@example.com`],
  ])('accepts %s', (input, address) => {
    expect(normalizedMailAddress(input)).toBe(address)
  })

  it.each([
    'plain',
    // An international domain travels in punycode (browsers' e-mail inputs write it so).
    'x@müller.de',
    '@example.com',
    'a@',
    'a@localhost',
    'a@example',
    'a@example.c0m',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a b@example.com',
    'a@exa mple.com',
    'a@-example.com',
    'a@example-.com',
    'a@example..com',
    'a@[192.168.0.1]',
    '"a b"@example.com',
    'a@b@example.com',
    `${'l'.repeat(65)}@example.com`,
    `a@${'d'.repeat(64)}.com`,
    `a@${Array.from({ length: 60 }, () => 'abcd').join('.')}.com`,
  ])('refuses %s', (input) => {
    expect(normalizedMailAddress(input)).toBeNull()
  })

  it('trims and lowers an address for the browser and the server alike', () => {
    expect(v.parse(EmailSchema, "  O'Brien@Example.COM ")).toBe("o'brien@example.com")
    expect(v.safeParse(EmailSchema, 'not an address').issues?.[0]?.message).toBe(
      'E-mail must be a valid address.',
    )
  })
})
