import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type DoubleSession = {
  id: string
  object: 'checkout.session'
  mode: 'payment'
  status: 'open' | 'complete' | 'expired'
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  url: string | null
  client_reference_id: string | null
  metadata: Record<string, string>
  currency: string
  amount_total: number
  success_url: string
  cancel_url: string
  locale: string | null
}

type RecordedRequest = { method: string; path: string; authorization: string; form: URLSearchParams }

/**
 * A loopback stand-in for the Stripe endpoints the server calls (create, retrieve and expire Checkout
 * Sessions), answering the JSON the SDK parses. Point the SDK at it with STRIPE_API_BASE (`url`).
 */
export async function startStripeDouble() {
  const sessions = new Map<string, DoubleSession>()
  const requests: RecordedRequest[] = []
  let failNext = false

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
    })
    response.end(JSON.stringify(body))
  }
  const missing = (response: ServerResponse, id: string) =>
    send(response, 404, {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such checkout.session: '${id}'`,
      },
    })

  async function handle(request: IncomingMessage, response: ServerResponse) {
    let raw = ''
    for await (const chunk of request) raw += chunk
    const url = new URL(request.url ?? '/', 'http://double')
    const form = new URLSearchParams(request.method === 'GET' ? url.search : raw)
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      authorization: request.headers.authorization ?? '',
      form,
    })
    if (failNext) {
      failNext = false
      return send(response, 400, { error: { type: 'invalid_request_error', message: 'Simulated failure' } })
    }
    const match = url.pathname.match(/^\/v1\/checkout\/sessions(?:\/([^/]+))?(\/expire)?$/)
    if (!match)
      return send(response, 404, { error: { type: 'invalid_request_error', message: 'Unknown path' } })
    const [, id, expire] = match
    if (request.method === 'POST' && !id) {
      const sessionId = `cs_test_${randomBytes(12).toString('hex')}`
      const session: DoubleSession = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        url: `https://checkout.stripe.test/c/pay/${sessionId}`,
        client_reference_id: form.get('client_reference_id'),
        metadata: {
          orderId: form.get('metadata[orderId]') ?? '',
          reference: form.get('metadata[reference]') ?? '',
        },
        currency: 'eur',
        amount_total: lineItems(form).reduce((sum, item) => sum + item.unitAmount * item.quantity, 0),
        success_url: form.get('success_url') ?? '',
        cancel_url: form.get('cancel_url') ?? '',
        locale: form.get('locale'),
      }
      sessions.set(sessionId, session)
      return send(response, 200, session)
    }
    const session = id ? sessions.get(id) : undefined
    if (!session || !id) return missing(response, id ?? '')
    if (request.method === 'POST' && expire) {
      if (session.status !== 'open') {
        return send(response, 400, {
          error: { type: 'invalid_request_error', message: 'Session is not open' },
        })
      }
      session.status = 'expired'
      session.url = null
      return send(response, 200, session)
    }
    if (request.method === 'GET') return send(response, 200, session)
    return send(response, 405, { error: { type: 'invalid_request_error', message: 'Method not allowed' } })
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      send(response, 500, { error: { message: String(error) } }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    /** The payer finished: paid now, or a delayed method still pending (`unpaid`). */
    complete(id: string, paymentStatus: DoubleSession['payment_status'] = 'paid') {
      const session = sessions.get(id)!
      session.status = 'complete'
      session.payment_status = paymentStatus
      session.url = null
      return session
    },
    expire(id: string) {
      const session = sessions.get(id)!
      session.status = 'expired'
      session.url = null
      return session
    },
    /** The next call answers a 400 Stripe error. */
    failNextRequest() {
      failNext = true
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The `line_items[i][…]` of a form-encoded Checkout Session creation. */
export function lineItems(form: URLSearchParams) {
  const items: Array<{ name: string; unitAmount: number; quantity: number; currency: string }> = []
  for (let index = 0; form.has(`line_items[${index}][quantity]`); index += 1) {
    const key = (name: string) => form.get(`line_items[${index}]${name}`) ?? ''
    items.push({
      name: key('[price_data][product_data][name]'),
      unitAmount: Number(key('[price_data][unit_amount]')),
      quantity: Number(key('[quantity]')),
      currency: key('[price_data][currency]'),
    })
  }
  return items
}
