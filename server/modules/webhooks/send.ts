import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { guardedLookup, hostOf, isPrivateAddress } from './target.ts'

/** What the receiver's answer may weigh before the rest is dropped: only its status matters. */
export const RESPONSE_BODY_CAP_BYTES = 64 * 1024

/**
 * Why an attempt failed without a 2xx, as stored in the delivery log (the screen translates them):
 * `http_status` a non-2xx answer, `redirect` a 3xx (never followed), `timeout`, `connection_failed` (refused,
 * reset, no such name, or a private address refused: see target.ts), `secret_unreadable`, `endpoint_disabled`.
 * A private address is not told apart from a failed connection: the log would otherwise tell an admin which
 * names exist inside the server's network.
 */
type AttemptError =
  | 'http_status'
  | 'redirect'
  | 'timeout'
  | 'connection_failed'
  | 'secret_unreadable'
  | 'endpoint_disabled'

export type SendResult = { statusCode: number | null; durationMs: number; error: AttemptError | null }

export type SendOptions = { timeoutMs: number; allowPrivate: boolean; headers: Record<string, string> }

/**
 * POSTs the body once: no redirect followed, the whole exchange (connection, answer, its capped body) within
 * `timeoutMs`, no pooled connection (each attempt resolves and checks the name again).
 */
export function postWebhook(target: string, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now()
  const done = (statusCode: number | null, error: AttemptError | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  })
  const url = new URL(target)
  const host = hostOf(url)
  if (!options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    return Promise.resolve(done(null, 'connection_failed'))
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: SendResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      request.destroy()
      resolve(result)
    }
    const request = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options.allowPrivate),
      headers: {
        ...options.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Trousseau-Webhooks/1',
      },
    })
    // An answer whose status came in time counts, even if its body is still trickling in.
    let answered: { status: number; error: AttemptError | null } | null = null
    const timer = setTimeout(
      () => finish(answered ? done(answered.status, answered.error) : done(null, 'timeout')),
      options.timeoutMs,
    )
    request.on('error', () => finish(done(null, 'connection_failed')))
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0
      const error: AttemptError | null =
        status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? 'redirect' : 'http_status'
      answered = { status, error }
      let received = 0
      response.on('data', (chunk: Buffer) => {
        received += chunk.length
        if (received >= RESPONSE_BODY_CAP_BYTES) finish(done(status, error))
      })
      response.on('end', () => finish(done(status, error)))
      response.on('error', () => finish(done(status, error)))
    })
    request.end(body)
  })
}
