import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { type Config, isSecureDeployment } from '../config.ts'

/**
 * `__Host-session` (HttpOnly, Secure, SameSite=Lax, Path=/, no Domain) behind https. A plain http PUBLIC_URL
 * (localhost development, tests) cannot hold Secure cookies, so there it is `session` without the prefix.
 */
export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return isSecureDeployment(config) ? '__Host-session' : 'session'
}

export function readSessionCookie(c: Context, config: Pick<Config, 'publicUrl'>): string | undefined {
  return getCookie(c, sessionCookieName(config))
}

export function setSessionCookie(
  c: Context,
  config: Pick<Config, 'publicUrl'>,
  value: string,
  { expiresAt, now }: { expiresAt: Date; now: Date },
) {
  setCookie(c, sessionCookieName(config), value, {
    httpOnly: true,
    secure: isSecureDeployment(config),
    sameSite: 'Lax',
    path: '/',
    // Max-Age only: relative, so neither the browser's clock nor ours can skew it.
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
  })
}

export function clearSessionCookie(c: Context, config: Pick<Config, 'publicUrl'>) {
  deleteCookie(c, sessionCookieName(config), {
    httpOnly: true,
    secure: isSecureDeployment(config),
    sameSite: 'Lax',
    path: '/',
  })
}
