import { existsSync } from 'node:fs'
import { Hono } from 'hono'
import { ErrorCode } from '../contract/errors.ts'
import type { AppDeps } from './deps.ts'
import { mountApiDocs } from './http/api-docs.ts'
import { ApiRouter } from './http/api-router.ts'
import { compressResponses } from './http/compression.ts'
import type { AppEnv } from './http/env.ts'
import { ApiError, errorResponse, handleError, notFound } from './http/errors.ts'
import { allowedMethodsOf } from './http/method-not-allowed.ts'
import { openApiDocument } from './http/openapi.ts'
import { requestContext } from './http/request-context.ts'
import { corsForAllowList, jsonOnly, limitBody, originCheck } from './http/request-guards.ts'
import { RouteRegistry } from './http/route-spec.ts'
import { securityHeaders } from './http/security-headers.ts'
import { sessionMiddleware } from './http/session.ts'
import { sessionCookieName } from './http/session-cookie.ts'
import { staticSpa } from './http/static-spa.ts'
import { activityRoutes } from './modules/activity/routes.ts'
import { resolveApiToken } from './modules/api-tokens/resolve.ts'
import { apiTokenRoutes } from './modules/api-tokens/routes.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { resolveSession } from './modules/auth/sessions.ts'
import { calendarRoutes } from './modules/calendar/routes.ts'
import { dashboardRoutes } from './modules/dashboard/routes.ts'
import { deviceRoutes } from './modules/devices/routes.ts'
import { foundReportRoutes } from './modules/found-reports/routes.ts'
import { handoverRoutes } from './modules/handovers/routes.ts'
import { healthRoutes } from './modules/health/routes.ts'
import { identityRoutes } from './modules/identity/routes.ts'
import { keychainBulkRoutes } from './modules/keychain-bulk/routes.ts'
import { keychainImportRoutes } from './modules/keychain-imports/routes.ts'
import { keychainRoutes } from './modules/keychains/routes.ts'
import { labelRoutes } from './modules/labels/routes.ts'
import { memberRoutes } from './modules/members/routes.ts'
import { METRICS_PATH, metricsEndpoint, RequestMetrics, recordRequests } from './modules/metrics/routes.ts'
import { cartRoutes } from './modules/orders/cart-routes.ts'
import { paymentRoutes } from './modules/orders/payment-routes.ts'
import { orderRoutes } from './modules/orders/routes.ts'
import { organizationRoutes } from './modules/organizations/routes.ts'
import { placeRoutes } from './modules/places/routes.ts'
import { planRoutes } from './modules/plans/routes.ts'
import { priceRoutes } from './modules/prices/routes.ts'
import { profileRoutes } from './modules/profile/routes.ts'
import { isOperator } from './modules/profile/service.ts'
import { noticeRoutes } from './modules/push/routes.ts'
import { memberPageRoutes } from './modules/reports/member-page-routes.ts'
import { reportRoutes } from './modules/reports/routes.ts'
import { scanRoutes } from './modules/scans/routes.ts'
import { SCIM_PATH, scimRoutes } from './modules/scim/routes.ts'
import { stocktakeRoutes } from './modules/stocktakes/routes.ts'
import { subscriptionRoutes } from './modules/subscriptions/routes.ts'
import { syncRoutes } from './modules/sync/routes.ts'
import { tagRoutes } from './modules/tags/routes.ts'
import { transferRoutes } from './modules/transfers/routes.ts'
import { webhookRoutes } from './modules/webhooks/routes.ts'

export type AppOptions = {
  /** Verify every 2xx answer against its declared schema (tests turn this on). */
  checkResponses?: boolean
}

/** One router per module, each registering its routes (validation + OpenAPI) in one registry. */
const MODULES: Array<{ tag: string; mount: (api: ApiRouter, deps: AppDeps) => void }> = [
  { tag: 'health', mount: healthRoutes },
  { tag: 'auth', mount: authRoutes },
  { tag: 'identity', mount: identityRoutes },
  { tag: 'profile', mount: profileRoutes },
  { tag: 'api-tokens', mount: apiTokenRoutes },
  { tag: 'devices', mount: deviceRoutes },
  { tag: 'notices', mount: noticeRoutes },
  { tag: 'organizations', mount: organizationRoutes },
  { tag: 'members', mount: memberRoutes },
  { tag: 'members', mount: memberPageRoutes },
  { tag: 'keychains', mount: keychainRoutes },
  { tag: 'keychain-imports', mount: keychainImportRoutes },
  { tag: 'keychain-bulk', mount: keychainBulkRoutes },
  { tag: 'places', mount: placeRoutes },
  { tag: 'tags', mount: tagRoutes },
  { tag: 'labels', mount: labelRoutes },
  { tag: 'scans', mount: scanRoutes },
  { tag: 'stocktakes', mount: stocktakeRoutes },
  { tag: 'handovers', mount: handoverRoutes },
  { tag: 'transfers', mount: transferRoutes },
  { tag: 'calendar', mount: calendarRoutes },
  { tag: 'activity', mount: activityRoutes },
  { tag: 'reports', mount: reportRoutes },
  { tag: 'found-reports', mount: foundReportRoutes },
  { tag: 'sync', mount: syncRoutes },
  { tag: 'dashboard', mount: dashboardRoutes },
  { tag: 'prices', mount: priceRoutes },
  { tag: 'plans', mount: planRoutes },
  { tag: 'cart', mount: cartRoutes },
  { tag: 'orders', mount: orderRoutes },
  { tag: 'subscriptions', mount: subscriptionRoutes },
  { tag: 'payments', mount: paymentRoutes },
  { tag: 'webhooks', mount: webhookRoutes },
]

/** Stripe posts its webhook from its servers (no Origin) with a body that must stay raw for the signature. */
const WEBHOOK_PATH = /^\/api\/payments\/stripe\/webhook$/
/** The sandbox checkout's buttons are plain HTML forms (same origin: the Origin check still applies). */
const SANDBOX_FORM_PATH = /^\/api\/payments\/local\/[A-Za-z0-9_-]+\/(pay|fail|cancel)$/
/** A keychain CSV travels whole in its JSON body: these take up to `IMPORT_MAX_BODY_BYTES`. */
const IMPORT_PATH = /^\/api\/keychain-imports(\/previews)?$/

export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const { config } = deps
  const registry = new RouteRegistry()
  const app = new Hono<AppEnv>()
  const metrics = new RequestMetrics()

  app.use(recordRequests(metrics))
  app.use(requestContext(deps.logger))
  app.use(securityHeaders(config))
  // Inside the security headers (set on the final answer), outside every /api middleware and handler, whose
  // final body (errors included: onError answers where the handler threw) it compresses.
  app.use('/api/*', compressResponses())
  app.onError(handleError)

  const api = new Hono<AppEnv>()
  if (config.corsOrigins.length > 0) api.use(corsForAllowList(config))
  api.use(originCheck(config, (path) => WEBHOOK_PATH.test(path)))
  api.use(limitBody((path) => IMPORT_PATH.test(path)))
  api.use(jsonOnly((path) => WEBHOOK_PATH.test(path) || SANDBOX_FORM_PATH.test(path)))
  api.use(
    sessionMiddleware(
      deps,
      (sessionId) => resolveSession(deps, sessionId),
      (token) => resolveApiToken(deps, token),
    ),
  )
  api.use(async (c, next) => {
    await next()
    c.res.headers.set('Cache-Control', c.res.headers.get('Cache-Control') ?? 'no-store')
  })

  for (const module of MODULES) {
    const router = new ApiRouter(registry, module.tag, {
      db: deps.database.db,
      checkResponses: options.checkResponses,
      isOperator: (email) => isOperator(deps, email),
    })
    module.mount(router, deps)
    api.route('/', router.hono)
  }

  const apiDocument = () =>
    openApiDocument(registry, {
      version: deps.version,
      cookieName: sessionCookieName(config),
      serverUrl: '/api',
    })
  const openApiRouter = new ApiRouter(registry, 'meta', { db: deps.database.db })
  openApiRouter.route(
    {
      method: 'get',
      path: '/openapi.json',
      summary: 'This document',
      access: 'public',
      responses: { 200: { description: 'OpenAPI 3.1' } },
    },
    (c) => c.json(apiDocument()),
  )
  api.route('/', openApiRouter.hono)
  mountApiDocs(api, apiDocument)
  const allowedMethods = allowedMethodsOf(registry)
  api.all('*', (c) => {
    const allowed = allowedMethods(c.req.path.replace(/^\/api/, ''))
    if (allowed.length === 0) return errorResponse(c, notFound('No such API endpoint.'))
    c.header('Allow', allowed.join(', '))
    return errorResponse(
      c,
      new ApiError(405, ErrorCode.methodNotAllowed, `This endpoint answers ${allowed.join(', ')} only.`),
    )
  })

  // Outside the API's middleware (Origin check, session): a Prometheus server holds a token, not a session.
  app.get(METRICS_PATH, metricsEndpoint(deps, metrics))
  // Outside it too: an identity provider holds an organization's SCIM token and speaks SCIM's own errors.
  app.route(SCIM_PATH, scimRoutes(deps))
  app.route('/api', api)

  if (config.nodeEnv === 'production') {
    if (existsSync(config.staticDir)) app.use(staticSpa(config.staticDir))
    else deps.logger.warn({ staticDir: config.staticDir }, 'STATIC_DIR not found: the SPA is not served')
  }
  app.notFound((c) => c.text('Not found', 404))

  return { app, registry }
}
