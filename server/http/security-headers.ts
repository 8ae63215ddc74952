import { createHash } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { THEME_BOOT_SCRIPT } from '../../contract/theme.ts'
import { type Config, isSecureDeployment } from '../config.ts'

/** The one inline script of the pages (the theme before the first paint), allowed by its hash and nothing else. */
export const THEME_BOOT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`

export function contentSecurityPolicy(config: Pick<Config, 'corsOrigins'>): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${THEME_BOOT_SCRIPT_HASH}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...config.corsOrigins].join(' '),
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
}

/** Set on every response, API and static alike. */
export function securityHeaders(config: Pick<Config, 'corsOrigins' | 'publicUrl'>): MiddlewareHandler {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(config),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(self), microphone=(), geolocation=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  }
  if (isSecureDeployment(config)) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains'
  return async (c, next) => {
    await next()
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value)
  }
}
