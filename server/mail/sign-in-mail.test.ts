import { describe, expect, it } from 'vitest'
import { escapeHtml } from '../html.ts'
import { signInLink, signInMail } from './sign-in-mail.ts'

const token = `${'A'.repeat(40)}-_x`
const input = { to: 'camille@example.test', publicUrl: 'https://keys.example.test', token, code: '012345' }

describe('sign-in mail', () => {
  it('links to / in French, with the code, in text and HTML', () => {
    const mail = signInMail({ ...input, locale: 'fr' })
    expect(mail.subject).toBe('Votre connexion à Trousseau')
    expect(mail.text).toContain(`https://keys.example.test/?token=${token}`)
    expect(mail.text).toMatch(/^012345$/m)
    expect(mail.text).toContain('valables 10 minutes')
    expect(mail.html).toContain(`href="https://keys.example.test/?token=${token}"`)
    expect(mail.html).toContain('012345')
    expect(mail.html).toContain('<html lang="fr">')
  })

  it('links to /en/ in English', () => {
    const mail = signInMail({ ...input, locale: 'en' })
    expect(mail.subject).toBe('Your Trousseau sign-in')
    expect(mail.text).toContain(`https://keys.example.test/en/?token=${token}`)
    expect(mail.text).toContain('valid 10 minutes')
    expect(mail.html).toContain(`href="https://keys.example.test/en/?token=${token}"`)
    expect(mail.html).toContain('012345')
  })

  it('keeps a path prefix of PUBLIC_URL and escapes interpolations in the HTML part', () => {
    expect(signInLink('https://example.test/keys/', 'en', 'abc')).toBe(
      'https://example.test/keys/en/?token=abc',
    )
    const mail = signInMail({ ...input, publicUrl: 'https://example.test/"><script>', locale: 'fr' })
    expect(mail.html).not.toContain('"><script>')
    expect(mail.html).toContain('&quot;&gt;&lt;script&gt;')
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })

  it('carries the link and code as a developer note for the outbox log', () => {
    expect(signInMail({ ...input, locale: 'fr' }).devNote).toBe(
      `Sign-in link: https://keys.example.test/?token=${token} code: 012345`,
    )
  })
})
