import type { Locale } from '../../contract/locale.ts'
import type { MailMessage } from './mailer.ts'
import { messages } from './messages.ts'

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

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
  const t = messages[input.locale]
  const link = signInLink(input.publicUrl, input.locale, input.token)
  const text = [
    t.signInGreeting,
    '',
    t.signInIntro,
    link,
    '',
    t.signInCodeIntro,
    input.code,
    '',
    t.signInValidity,
    t.signInIgnore,
    '',
    t.signature,
  ].join('\n')
  const e = escapeHtml
  const html = `<!doctype html>
<html lang="${input.locale}">
<head><meta charset="utf-8"><title>${e(t.signInSubject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<span style="display: none">${e(t.signInPreheader)}</span>
<p>${e(t.signInGreeting)}</p>
<p>${e(t.signInIntro)}</p>
<p><a href="${e(link)}" style="display: inline-block; padding: 10px 18px; background: #1d4ed8; color: #fff; border-radius: 6px; text-decoration: none">${e(t.signInButton)}</a></p>
<p style="font-size: 13px; word-break: break-all"><a href="${e(link)}">${e(link)}</a></p>
<p>${e(t.signInCodeIntro)}</p>
<p style="font-size: 28px; font-weight: 700; letter-spacing: 6px; font-family: ui-monospace, monospace">${e(input.code)}</p>
<p>${e(t.signInValidity)}</p>
<p style="color: #6b7280">${e(t.signInIgnore)}</p>
<p>${e(t.signature)}</p>
</body>
</html>
`
  return {
    to: input.to,
    subject: t.signInSubject,
    text,
    html,
    devNote: `Sign-in link: ${link} code: ${input.code}`,
  }
}
