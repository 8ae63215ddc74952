import type { Locale } from '../../contract/locale.ts'
import { escapeHtml } from '../html.ts'
import type { MailMessage } from './mailer.ts'

export type MailContent = {
  to: string
  locale: Locale
  subject: string
  /** Hidden preview line some clients show after the subject. */
  preheader: string
  /** Plain paragraphs (escaped in HTML); a paragraph may hold several lines. */
  paragraphs: string[]
  button?: { label: string; href: string }
  signature: string
}

/** The text and HTML parts of a simple transactional mail: paragraphs, one button, a signature. */
export function renderMail(content: MailContent): MailMessage {
  const e = escapeHtml
  const button = content.button
  const text = [
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(button ? [`${button.label}: ${button.href}`, ''] : []),
    content.signature,
  ].join('\n')
  const paragraphs = content.paragraphs
    .map((paragraph) => `<p>${e(paragraph).replaceAll('\n', '<br>')}</p>`)
    .join('\n')
  const action = button
    ? `<p><a href="${e(button.href)}" style="display: inline-block; padding: 10px 18px; background: #1d4ed8; color: #fff; border-radius: 6px; text-decoration: none">${e(button.label)}</a></p>
<p style="font-size: 13px; word-break: break-all"><a href="${e(button.href)}">${e(button.href)}</a></p>`
    : ''
  const html = `<!doctype html>
<html lang="${content.locale}">
<head><meta charset="utf-8"><title>${e(content.subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<span style="display: none">${e(content.preheader)}</span>
${paragraphs}
${action}
<p>${e(content.signature)}</p>
</body>
</html>
`
  return {
    to: content.to,
    subject: content.subject,
    text,
    html,
    summary: content.preheader,
    ...(button ? { link: button.href } : {}),
  }
}
