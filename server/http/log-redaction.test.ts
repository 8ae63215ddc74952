// The request log (and every other line) never holds a credential: a secret in a path is logged by its
// parameter's name, headers and query strings are never logged. Real secrets, the real app, the real logger.
import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import { placeOrder } from '../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { issueSignInToken } from '../modules/auth/sign-in-tokens.ts'
import { LOGGED_PATH_PARAMETERS } from './request-context.ts'

const STRIPE_WEBHOOK_SECRET = 'whsec_log_redaction'
const METRICS_TOKEN = `metrics-${randomUUID()}`
const t = setupTestApp({
  config: {
    logLevel: 'trace',
    paymentProvider: 'local',
    metricsToken: METRICS_TOKEN,
    stripeSecretKey: 'sk_test_log_redaction',
    stripeWebhookSecret: STRIPE_WEBHOOK_SECRET,
  },
})

/**
 * The routes whose path carries a credential (a parameter not in `LOGGED_PATH_PARAMETERS`): a calendar feed's
 * token, a sandbox payment session's id. A new one fails the first test until it is added here, and the
 * second until a request with a real secret shows its log line redacted.
 */
const SECRET_ROUTES = [
  'GET /calendar/:token',
  'GET /payments/local/:sessionId',
  'POST /payments/local/:sessionId/:outcome',
]

const parametersOf = (path: string) =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1))
const keyOf = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`

type Logged = { msg: string; method?: string; path?: string; status?: number }

/** The log lines written while `send` ran, parsed. */
async function logsOf(send: () => Promise<Response>): Promise<{ response: Response; text: string }> {
  t.logLines.length = 0
  const response = await send()
  await response.arrayBuffer()
  return { response, text: t.logLines.join('') }
}

function requestLines(text: string): Logged[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Logged)
    .filter((line) => line.msg === 'request')
}

describe('which path parameters are logged', () => {
  it('redacts exactly the routes that carry a secret in their path', () => {
    const secret = t.registry.routes
      .filter((route) => parametersOf(route.path).some((name) => !LOGGED_PATH_PARAMETERS.has(name)))
      .map(keyOf)
    expect(secret).toEqual(SECRET_ROUTES)
  })

  it('logs only parameters that are ids (uuids), the tag’s printed public id, or a fixed word', async () => {
    const document = (await (await t.get('/api/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ name: string; in: string; schema: object }> }>
      >
    }
    const notIds: string[] = []
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods))
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'path' || !LOGGED_PATH_PARAMETERS.has(parameter.name)) continue
          const schema = parameter.schema as { format?: string; enum?: unknown[] }
          if (schema.format === 'uuid' || Array.isArray(schema.enum)) continue
          notIds.push(`${method.toUpperCase()} ${path} ${parameter.name}`)
        }
    // A tag's public id is printed on the tag for finders: public by design. A handover's id is its offer's
    // digest: it names a record the caller must be allowed to read, it opens nothing.
    // An organization's mail domain is published in its DNS (the proof it covers it).
    expect(notIds).toEqual([
      'POST /organizations/{id}/identity-domains/{domain}/verification domain',
      'DELETE /organizations/{id}/identity-domains/{domain} domain',
      'GET /tags/{publicId} publicId',
      'POST /tags/{publicId}/found-reports publicId',
      'GET /handovers/{id} id',
      'GET /handovers/{id}/receipt.json id',
      'GET /handovers/{id}/receipt.pdf id',
    ])
  })
})

describe('the log holds no credential, and still one line per request', () => {
  let cookie: string
  let feedPath: string
  let sandboxPath: string
  let apiToken: string

  beforeAll(async () => {
    const { admin } = await organizationWithAdmin(t)
    cookie = admin.cookie
    const feed = await t.post('/api/calendar-feeds', { cookie, json: { scope: 'personal' } })
    expect(feed.status).toBe(201)
    feedPath = new URL(((await feed.json()) as { url: string }).url).pathname
    const order = await placeOrder(t, cookie)
    const session = await t.post(`/api/orders/${order.id}/sessions`, { cookie, json: {} })
    expect(session.status).toBe(201)
    sandboxPath = new URL(((await session.json()) as { url: string }).url).pathname
    const token = await t.post('/api/api-tokens', { cookie, json: { name: 'Logs' } })
    expect(token.status).toBe(201)
    apiToken = ((await token.json()) as { token: string }).token
  })

  const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
  /** The feed's token, the sandbox session's id: the last segment of their addresses. */
  const lastSegment = (path: string) =>
    path
      .split('/')
      .at(-1)!
      .replace(/\.ics$/, '')

  type SecretRequest = {
    method: string
    path: string
    headers?: Record<string, string>
    status: number
    logged: string
  }
  /** For each route of SECRET_ROUTES: its real secret, requests naming it, and the path each is logged as. */
  const SECRET_REQUESTS: Record<string, () => { secret: string; requests: SecretRequest[] }> = {
    'GET /calendar/:token': () => ({
      secret: lastSegment(feedPath),
      requests: [
        { method: 'GET', path: feedPath, status: 200, logged: '/api/calendar/:token' },
        { method: 'HEAD', path: feedPath, status: 200, logged: '/api/calendar/:token' },
        // Refused before the route's handler runs: the route matched all the same.
        {
          method: 'GET',
          path: feedPath,
          headers: { authorization: 'Bearer not-a-token' },
          status: 401,
          logged: '/api/calendar/:token',
        },
        // No route of this method, or none of this shape: only the first segment is kept.
        { method: 'POST', path: feedPath, status: 405, logged: '/api/calendar/…' },
        { method: 'GET', path: `${feedPath}/more`, status: 404, logged: '/api/calendar/…' },
        { method: 'GET', path: `/api/${feedPath}`, status: 404, logged: '/api//…' },
        // A whole address, or `//api/…` would be read as the host `api`.
        { method: 'GET', path: `${t.config.publicUrl}/${feedPath}`, status: 404, logged: '//api/calendar/…' },
      ],
    }),
    'GET /payments/local/:sessionId': () => ({
      secret: lastSegment(sandboxPath),
      requests: [{ method: 'GET', path: sandboxPath, status: 200, logged: '/api/payments/local/:sessionId' }],
    }),
    'POST /payments/local/:sessionId/:outcome': () => ({
      secret: lastSegment(sandboxPath),
      requests: [
        {
          method: 'POST',
          path: `${sandboxPath}/cancel`,
          headers: FORM,
          status: 303,
          logged: '/api/payments/local/:sessionId/cancel',
        },
      ],
    }),
  }

  it('covers every route that carries a secret in its path', () => {
    expect(Object.keys(SECRET_REQUESTS)).toEqual(SECRET_ROUTES)
  })

  it.each(SECRET_ROUTES)('%s: the secret in the path is logged by its name', async (route) => {
    const { secret, requests } = SECRET_REQUESTS[route]!()
    expect(secret.length).toBeGreaterThanOrEqual(20)
    for (const request of requests) {
      const { response, text } = await logsOf(() =>
        t.request(request.path, {
          method: request.method,
          headers: request.headers,
          ...(request.headers === FORM ? { body: '' } : {}),
        }),
      )
      expect(response.status, `${request.method} ${request.path}`).toBe(request.status)
      expect(text).not.toContain(secret)
      expect(requestLines(text)).toEqual([
        expect.objectContaining({ method: request.method, path: request.logged, status: request.status }),
      ])
    }
  })

  it('logs no session cookie, API token, sign-in token, webhook signature or metrics token', async () => {
    const signIn = await issueSignInToken(t.deps, `logs-${randomUUID()}@example.test`, 'fr')
    const event = JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'customer.created' })
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload: event,
      secret: STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    })
    const cases = [
      { secret: cookie.split('=')[1]!, send: () => t.get('/api/profile', { cookie }), path: '/api/profile' },
      {
        secret: apiToken,
        send: () => t.get('/api/profile', { headers: { authorization: `Bearer ${apiToken}` } }),
        path: '/api/profile',
      },
      {
        secret: signIn.token,
        send: () => t.post('/api/sessions', { json: { token: signIn.token } }),
        path: '/api/sessions',
      },
      {
        secret: signIn.token,
        send: () => t.get(`/api/health?token=${signIn.token}`),
        path: '/api/health',
      },
      {
        secret: signature,
        send: () =>
          t.post('/api/payments/stripe/webhook', {
            body: event,
            origin: null,
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          }),
        path: '/api/payments/stripe/webhook',
      },
      {
        secret: METRICS_TOKEN,
        send: () => t.get('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
        path: '/api/metrics',
      },
    ]
    for (const { secret, send, path } of cases) {
      const { response, text } = await logsOf(send)
      expect(response.status, path).toBeLessThan(300)
      expect(text).not.toContain(secret)
      expect(requestLines(text)).toEqual([expect.objectContaining({ path, status: response.status })])
    }
  })

  it('redacts any secret parameter of any registered route, whatever the answer (signed out)', async () => {
    const marked = t.registry.routes.filter((route) => parametersOf(route.path).length > 0)
    expect(marked.length).toBeGreaterThan(40)
    for (const route of marked) {
      const marker = `secret${randomUUID().replaceAll('-', '')}`
      const values = parametersOf(route.path).map((name) => ({
        name,
        value: LOGGED_PATH_PARAMETERS.has(name) ? (name === 'outcome' ? 'pay' : randomUUID()) : marker,
      }))
      let path = `/api${route.path}`
      let logged = path
      for (const { name, value } of values) {
        path = path.replace(`:${name}`, value)
        logged = logged.replace(`:${name}`, value === marker ? `:${name}` : value)
      }
      const { text } = await logsOf(() =>
        t.request(path, {
          method: route.method.toUpperCase(),
          ...(route.method === 'get' ? {} : { json: {} }),
        }),
      )
      expect(text, keyOf(route)).not.toContain(marker)
      expect(requestLines(text), keyOf(route)).toEqual([expect.objectContaining({ path: logged })])
    }
  })
})
