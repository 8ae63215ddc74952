import type { Context } from 'hono'

/**
 * The token of an `Authorization: Bearer …` header: undefined without one (or with another scheme), '' when
 * what follows `Bearer` is not one token. A request that names a bearer token is authenticated by it alone: its
 * cookies are not read, which is why such a request needs no Origin check (nothing ambient is used).
 */
export function bearerTokenOf(c: Context): string | undefined {
  const header = c.req.header('authorization')
  if (header === undefined || !/^Bearer(\s|$)/i.test(header)) return undefined
  const token = header.slice('Bearer'.length).trim()
  return /^\S+$/.test(token) ? token : ''
}
