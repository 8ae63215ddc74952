import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * With TRUST_PROXY, the right-most X-Forwarded-For entry: the one our own proxy appended, which a client
 * cannot forge (assumes exactly one proxy hop). Otherwise the socket's address.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')
    const last = forwarded?.split(',').at(-1)?.trim()
    if (last) return last
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown' // app.request() in tests has no socket
  }
}
