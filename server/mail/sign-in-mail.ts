import type { Locale } from '../../contract/locale.ts'
import { escapeHtml } from '../html.ts'
import { translator } from '../i18n/translator.ts'
import type { MailMessage } from './mailer.ts'
import { type SignInMessageKey, signInMessages } from './messages.ts'

/** The SPA route that posts the token: French at the root, English under /en. */
export function signInLink(publicUrl: string, locale: Locale, token: string): string {
  const base = publicUrl.replace(/\/+$/, '')
  return `${base}${locale === 'en' ? '/en/' : '/'}?token=${encodeURIComponent(token)}`
}

export function signInMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  token: string
  code: string
}): MailMessage {
  const i18n = translator(input.locale)
  const t = Object.fromEntries(
    Object.entries(signInMessages).map(([key, descriptor]) => [key, i18n._(descriptor)]),
  ) as Record<SignInMessageKey, string>
  const link = signInLink(input.publicUrl, input.locale, input.token)
  const text = [
    t.greeting,
    '',
    t.intro,
    link,
    '',
    t.codeIntro,
    input.code,
    '',
    t.validity,
    t.ignore,
    '',
    t.signature,
  ].join('\n')
  const e = escapeHtml
  const html = `<!doctype html>
<html lang="${input.locale}">
<head><meta charset="utf-8"><title>${e(t.subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<span style="display: none">${e(t.preheader)}</span>
<p>${e(t.greeting)}</p>
<p>${e(t.intro)}</p>
<p><a href="${e(link)}" style="display: inline-block; padding: 10px 18px; background: #1d4ed8; color: #fff; border-radius: 6px; text-decoration: none">${e(t.button)}</a></p>
<p style="font-size: 13px; word-break: break-all"><a href="${e(link)}">${e(link)}</a></p>
<p>${e(t.codeIntro)}</p>
<p style="font-size: 28px; font-weight: 700; letter-spacing: 6px; font-family: ui-monospace, monospace">${e(input.code)}</p>
<p>${e(t.validity)}</p>
<p style="color: #6b7280">${e(t.ignore)}</p>
<p>${e(t.signature)}</p>
</body>
</html>
`
  return {
    to: input.to,
    subject: t.subject,
    text,
    html,
    devNote: `Sign-in link: ${link} code: ${input.code}`,
  }
}
