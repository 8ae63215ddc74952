import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import { TAG_PRODUCT_ID } from '../../contract/commerce.ts'
import type { Role } from '../../contract/permissions.ts'
import { hookLabelUrl } from '../../contract/places.ts'
import {
  calendarFeeds,
  identityDomains,
  identityProviders,
  keychains,
  keys,
  pushSubscriptions,
  transferExtensions,
  transferPickups,
  transferReceipts,
  webhookEndpoints,
} from '../../server/db/schema.ts'
import {
  type Access,
  inPathOrganization,
  inSelectedOrganization,
  orOperator,
} from '../../server/http/access.ts'
import { createApiToken } from '../../server/modules/api-tokens/service.ts'
import { issueSignInToken } from '../../server/modules/auth/sign-in-tokens.ts'
import { storeFoundReport } from '../../server/modules/found-reports/service.ts'
import { sealSecret } from '../../server/shared/secret-box.ts'
import { keyedHash, newLinkToken } from '../../server/shared/secret-tokens.ts'
import {
  addMember,
  makeKeychain,
  makeOrder,
  makeTags,
  NEW_ORGANIZATION,
  organizationWithAdmin,
  putTagsInCart,
  signedInMember,
  TAG_CONFIGURATION,
} from './fixtures.ts'
import { appliedHandover, makeDevice, storedDevice } from './handovers.ts'
import { type TestApp, uniqueEmail } from './harness.ts'
import { makeBoard, makePlace } from './places.ts'
import { openStocktake } from './stocktakes.ts'
import { startTestIdp } from './test-idp.ts'
import { makeTransfer, parisDay, subscribe } from './transfers.ts'

/** The platform operator of the matrix (OPERATOR_EMAILS), also a MEMBER of the callers' organization. */
export const MATRIX_OPERATOR = 'operator@matrix.example.test'
export const MATRIX_STRIPE = { stripeSecretKey: 'sk_test_matrix', stripeWebhookSecret: 'whsec_matrix' }
/** Identity providers on the loopback (a test provider answers the settings' discovery), domains confirmed. */
export const MATRIX_OIDC = { oidcAllowHttpIssuers: true, oidcDomainProof: 'confirm' as const }
const MATRIX_IDP_CLIENT = { clientId: 'matrix', clientSecret: 'matrix-secret' }
let matrixIdp: ReturnType<typeof startTestIdp> | undefined
/** One test provider for the matrix's run (its discovery answers the settings' PUT). */
async function matrixIdpIssuer(): Promise<string> {
  matrixIdp ??= startTestIdp(MATRIX_IDP_CLIENT)
  return (await matrixIdp).issuer
}

/** The organization covers `<organization id>.matrix.example` with a provider, as its admins would have set it. */
async function coveredDomain(w: World, organizationId: string): Promise<string> {
  const domain = `o${organizationId.slice(0, 8)}.matrix.example`
  const now = w.t.clock.now()
  await w.t.db
    .insert(identityProviders)
    .values({
      organizationId,
      issuer: await matrixIdpIssuer(),
      clientId: MATRIX_IDP_CLIENT.clientId,
      clientSecret: sealSecret(w.t.deps.secret, MATRIX_IDP_CLIENT.clientSecret, 'identity-provider'),
      defaultRole: 'MEMBER',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
  await w.t.db
    .insert(identityDomains)
    .values({
      domain,
      organizationId,
      txtValue: 'matrix',
      proof: 'CONFIRMED',
      verifiedAt: now,
      createdAt: now,
    })
    .onConflictDoNothing()
  return domain
}

/** Who sends a matrix request: a role of the own organization, the operator, or nobody. */
export type Caller = Role | 'operator' | 'signed out'

/** What the matrix test sends for one route. */
type Case = {
  path: string
  json?: unknown
  /** A raw body (set its content type in `headers`). */
  body?: string
  headers?: Record<string, string>
  /** Send it with a throwaway session of the caller (signing in or out ends the session it is sent with). */
  throwawaySession?: boolean
}

export type World = Awaited<ReturnType<typeof buildWorld>>
/** `caller`: the user the request is sent as (null signed out), for data that is per user (the cart). */
type Builder = (world: World, caller: { id: string } | null) => Promise<Case>

/**
 * One entry per registered route, keyed `METHOD /path`: a valid request in the caller's own organization,
 * and one naming another organization's resource (expected 404), or the reason no such request exists.
 */
export type Fixture = {
  /** The declaration the route must carry: a change of who may call a route is reviewed here too. */
  access: Access
  own: Builder
  foreign: Builder | { notApplicable: string }
}

const LIST_ONLY = 'lists the caller’s own (or selected organization’s) data only'
const CREATE_ONLY = 'creates in the caller’s own scope; foreign ids in the body are validation errors'
const NO_RESOURCE = 'names no organization resource'

/** Two organizations: the callers' own (one member per role) and a foreign one with its own data. */
export async function buildWorld(t: TestApp) {
  const own = await organizationWithAdmin(t, 'Own')
  const foreign = await organizationWithAdmin(t, 'Foreign')
  const callers = {} as Record<Exclude<Caller, 'signed out'>, { id: string; email: string; cookie: string }>
  for (const role of ['ADMIN', 'MANAGER', 'MEMBER', 'CONTACT'] as const) {
    callers[role] = await signedInMember(t, own.organization.id, role)
  }
  const operator = await t.signIn(MATRIX_OPERATOR)
  await addMember(t, { userId: operator.profile.id, organizationId: own.organization.id, role: 'MEMBER' })
  callers.operator = { id: operator.profile.id, email: MATRIX_OPERATOR, cookie: operator.cookie }
  const ownId = own.organization.id
  const foreignId = foreign.organization.id
  // Transfers need a plan; enough allowance for every authorization the matrix makes.
  await subscribe(t, ownId, 1000)
  await subscribe(t, foreignId, 1000)
  return {
    t,
    own: ownId,
    foreign: foreignId,
    foreignAdminId: foreign.admin.id,
    callers,
    tag: async (organizationId: string) => (await makeTags(t, organizationId))[0]!,
    keychain: (organizationId: string) => makeKeychain(t, organizationId, 'Matrix'),
    member: async () => (await signedInMember(t, ownId, 'MEMBER', { select: false })).id,
    /**
     * A SCHEDULED transfer whose window is open now, of a new keychain: in the own organization addressed to
     * the caller (so the recipient's rules let them see it and pick it up), in the foreign one to its admin.
     */
    transfer: async (organizationId: string, caller: { id: string } | null) => {
      const keychain = await makeKeychain(t, organizationId, 'Lent')
      const recipientId = organizationId === ownId && caller ? caller.id : foreign.admin.id
      return makeTransfer(t, { organizationId, keychainId: keychain.id, recipientId })
    },
    /** The id of a new API token: the user's personal one, or an organization's (made by the user). */
    apiToken: async (input: { userId: string; organizationId?: string }) => {
      const creator = { id: input.userId, firstName: '', lastName: '', email: '' }
      const made = input.organizationId
        ? await createApiToken(t.deps, {
            kind: 'organization',
            organizationId: input.organizationId,
            role: 'MEMBER',
            creator,
            name: 'Matrix',
            expiresAt: null,
          })
        : await createApiToken(t.deps, { kind: 'personal', creator, name: 'Matrix', expiresAt: null })
      return made.apiToken.id
    },
    /** A personal calendar feed of the user, with its token. */
    calendarFeed: async (userId: string) => {
      const token = newLinkToken()
      const [feed] = await t.db
        .insert(calendarFeeds)
        .values({
          userId,
          scope: 'personal',
          tokenHash: keyedHash(t.deps.secret, 'calendar', token),
          createdAt: t.clock.now(),
        })
        .returning()
      return { id: feed!.id, token }
    },
    /** The path of a request for more time waiting for an answer, on a new transfer. */
    pendingExtension: async (organizationId: string) => {
      const keychain = await makeKeychain(t, organizationId, 'Asked')
      const transfer = await makeTransfer(t, {
        organizationId,
        keychainId: keychain.id,
        recipientId: organizationId === ownId ? own.admin.id : foreign.admin.id,
      })
      const [extension] = await t.db
        .insert(transferExtensions)
        .values({
          transferId: transfer.id,
          previousToDate: transfer.toDate,
          toDate: parisDay(t, 4),
          status: 'PENDING',
          requestedAt: t.clock.now(),
        })
        .returning()
      return `/api/transfers/${transfer.id}/extensions/${extension!.id}`
    },
    /** Picked up, and a day past its to-date: late. */
    overdueTransfer: async (organizationId: string) => {
      const keychain = await makeKeychain(t, organizationId, 'Late')
      const recipientId = organizationId === ownId ? own.admin.id : foreign.admin.id
      return makeTransfer(t, {
        organizationId,
        keychainId: keychain.id,
        recipientId,
        fromDate: parisDay(t, -4),
        toDate: parisDay(t, -2),
        status: 'TRANSFERRED',
      })
    },
    key: async (organizationId: string) => {
      const keychain = await makeKeychain(t, organizationId, 'With key')
      const [key] = await t.db
        .insert(keys)
        .values({ keychainId: keychain.id, name: 'K', type: 'KEY', createdAt: t.clock.now() })
        .returning()
      return { keychainId: keychain.id, keyId: key!.id }
    },
  }
}

/** A route with one kind of request: no foreign variant exists, for the reason given. */
const single = (access: Access, own: Builder, notApplicable: string): Fixture => ({
  access,
  own,
  foreign: { notApplicable },
})

/** The same request built once in the caller's own organization and once in the foreign one. */
const inEach = (access: Access, build: (w: World, organizationId: string) => Promise<Case>): Fixture => ({
  access,
  own: (w) => build(w, w.own),
  foreign: (w) => build(w, w.foreign),
})

const get =
  (path: string): Builder =>
  async () => ({ path })
const REPORT = { message: 'Found at the station.', contact: 'finder@example.test' }
const keychainPath = async (w: World, organizationId: string, suffix = '') =>
  `/api/keychains/${(await w.keychain(organizationId)).id}${suffix}`
const keyPath = async (w: World, organizationId: string) => {
  const { keychainId, keyId } = await w.key(organizationId)
  return `/api/keychains/${keychainId}/keys/${keyId}`
}
const tagPath = async (w: World, organizationId: string, suffix = '') =>
  `/api/tags/${(await w.tag(organizationId)).publicId}${suffix}`
const MATRIX_WEBHOOK_URL = 'http://127.0.0.1:9/matrix'
/** A new webhook of the organization, to a port that refuses at once (a test send fails fast, offline). */
const webhookPath = async (w: World, organizationId: string, suffix = '') => {
  const now = w.t.clock.now()
  const [row] = await w.t.db
    .insert(webhookEndpoints)
    .values({
      organizationId,
      url: MATRIX_WEBHOOK_URL,
      eventTypes: ['order.status_changed'],
      secretBox: sealSecret(w.t.deps.secret, 'whsec_matrix'),
      secretHint: '…trix',
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  return `/api/webhooks/${row!.id}${suffix}`
}
/** A found-key report kept for a new tag of the organization (the finder left an address to reply to). */
const foundReportPath = async (w: World, organizationId: string, suffix = '') => {
  const tag = await w.tag(organizationId)
  const { id } = await storeFoundReport(w.t.db, {
    organizationId,
    tagId: tag.id,
    ...REPORT,
    locale: 'fr',
    now: w.t.clock.now(),
  })
  return `/api/found-reports/${id}${suffix}`
}
const selected = inSelectedOrganization
const inPath = inPathOrganization
const readOrders = orOperator(selected('read__order'))
/** A report about a person: a member of the own organization, or the foreign one's admin (a 404). */
const aboutAPerson = (path: string) =>
  inEach(selected('read__activity'), async (w, id) => ({
    path: `${path}?person=${id === w.own ? w.callers.MEMBER.id : w.foreignAdminId}`,
  }))

/** A member's page, read by the caller about themself; another organization's admin is a 404. */
const aboutOneself = (part: string): Fixture => ({
  access: selected('read__transfer'),
  own: async (w, caller) => ({ path: `/api/users/${caller?.id ?? w.callers.MEMBER.id}/${part}` }),
  foreign: async (w) => ({ path: `/api/users/${w.foreignAdminId}/${part}` }),
})

type OrderOptions = Parameters<typeof makeOrder>[2]
const orderPath = async (w: World, organizationId: string, suffix = '', options: OrderOptions = {}) =>
  `/api/orders/${(await makeOrder(w.t, organizationId, options)).id}${suffix}`
/** An order action route, tried on an order of each organization in the status the action needs. */
const orderAction = (access: Access, suffix: string, options: OrderOptions): Fixture =>
  inEach(access, async (w, id) => ({ path: await orderPath(w, id, suffix, options), json: {} }))
const sandboxPath = async (w: World, organizationId: string, suffix = '') =>
  `/api/payments/local/${(await makeOrder(w.t, organizationId, { session: true })).sessionId}${suffix}`
/** A cart line of the caller's (none signed out: the request is refused before it matters). */
const cartLine = async (w: World, caller: { id: string } | null, organizationId: string) =>
  caller
    ? (await putTagsInCart(w.t, { userId: caller.id, organizationId })).id
    : '00000000-0000-4000-8000-000000000000'
const TAG_ITEM = {
  productType: 'TAG',
  productRefId: TAG_PRODUCT_ID,
  quantity: 10,
  unitAmountInCents: 250,
  configuration: TAG_CONFIGURATION,
}

/** A route that orders the caller's own cart (one line put in it first) of the selected organization. */
const ordersOwnCart = (path: string) =>
  single(
    selected('create__order'),
    async (w, caller) => {
      await cartLine(w, caller, w.own)
      return { path, json: {} }
    },
    'orders the caller’s own cart of the selected organization',
  )

export const FIXTURES: Record<string, Fixture> = {
  'GET /health': single('public', get('/api/health'), NO_RESOURCE),
  'GET /health/live': single('public', get('/api/health/live'), NO_RESOURCE),
  'GET /openapi.json': single('public', get('/api/openapi.json'), NO_RESOURCE),
  'POST /email-tokens': single(
    'public',
    async () => ({ path: '/api/email-tokens', json: { email: uniqueEmail() } }),
    NO_RESOURCE,
  ),
  'POST /sessions': single(
    'public',
    async (w) => {
      const { token } = await issueSignInToken(w.t.deps, uniqueEmail(), 'fr')
      return { path: '/api/sessions', json: { token }, throwawaySession: true }
    },
    NO_RESOURCE,
  ),
  'DELETE /session': single(
    'public',
    async () => ({ path: '/api/session', throwawaySession: true }),
    NO_RESOURCE,
  ),
  'GET /profile': single('signedIn', get('/api/profile'), NO_RESOURCE),
  'PATCH /profile': single(
    'signedIn',
    async () => ({ path: '/api/profile', json: { firstName: 'M' } }),
    NO_RESOURCE,
  ),

  'GET /organizations': single('signedIn', get('/api/organizations'), LIST_ONLY),
  'POST /organizations': single(
    'signedIn',
    async () => ({ path: '/api/organizations', json: NEW_ORGANIZATION }),
    CREATE_ONLY,
  ),
  'GET /organizations/default': single('signedIn', get('/api/organizations/default'), LIST_ONLY),
  'PATCH /organizations/default': inEach('signedIn', async (_w, id) => ({
    path: '/api/organizations/default',
    json: { id },
  })),
  'GET /organizations/:id': inEach(inPath('read__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}`,
  })),
  // MEMBER, the default: the matrix's stocktake scans keep passing for every role that has `scan__stocktake`.
  'PATCH /organizations/:id': inEach(inPath('update__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}`,
    json: { stocktakeRole: 'MEMBER' },
  })),
  'GET /organizations/:id/tags': inEach(inPath('read__tag'), async (_w, id) => ({
    path: `/api/organizations/${id}/tags`,
  })),
  'GET /organizations/:id/users': inEach(inPath('read__member'), async (_w, id) => ({
    path: `/api/organizations/${id}/users`,
  })),
  'POST /organizations/:id/users': inEach(inPath('create__member'), async (_w, id) => ({
    path: `/api/organizations/${id}/users`,
    json: { email: uniqueEmail(), role: 'MEMBER' },
  })),

  'GET /users': single(selected('read__member'), get('/api/users'), LIST_ONLY),
  'GET /users/:id': inEach(selected('read__member'), async (w, id) => ({
    path: `/api/users/${id === w.own ? await w.member() : w.foreignAdminId}`,
  })),
  'PATCH /users/:id': inEach(selected('update__member'), async (w, id) => ({
    path: `/api/users/${id === w.own ? await w.member() : w.foreignAdminId}`,
    json: { role: 'MANAGER' },
  })),

  'GET /keychains': single(selected('read__keychain'), get('/api/keychains'), LIST_ONLY),
  'POST /keychains': single(
    selected('create__keychain'),
    async () => ({ path: '/api/keychains', json: { name: 'New' } }),
    CREATE_ONLY,
  ),
  'POST /keychain-imports/previews': single(
    selected('create__keychain'),
    async () => ({ path: '/api/keychain-imports/previews', json: { csv: 'keychain_name\r\nPreviewed' } }),
    'reads the selected organization only; another one’s tags and members are row errors',
  ),
  'POST /keychain-imports': single(
    selected('create__keychain'),
    async () => ({
      path: '/api/keychain-imports',
      json: { csv: `keychain_name\r\nImported ${randomUUID()}` },
      headers: { 'idempotency-key': randomUUID() },
    }),
    'creates in the selected organization only; another one’s tags and members are row errors',
  ),
  'POST /keychain-bulk/custodian-changes': inEach(selected('update__keychain'), async (w, id) => ({
    path: '/api/keychain-bulk/custodian-changes',
    json: { ids: [(await w.keychain(id)).id], custodianId: null, reason: 'Matrix' },
    headers: { 'idempotency-key': randomUUID() },
  })),
  'POST /keychain-bulk/deletions': inEach(selected('delete__keychain'), async (w, id) => ({
    path: '/api/keychain-bulk/deletions',
    json: { ids: [(await w.keychain(id)).id] },
    headers: { 'idempotency-key': randomUUID() },
  })),
  'POST /keychain-bulk/transfers': inEach(selected('create__transfer'), async (w, id) => ({
    path: '/api/keychain-bulk/transfers',
    json: {
      ids: [(await w.keychain(id)).id],
      recipient: { kind: 'member', userId: w.callers.CONTACT.id },
      fromDate: parisDay(w.t),
      toDate: parisDay(w.t, 2),
    },
    headers: { 'idempotency-key': randomUUID() },
  })),
  'GET /keychain-export': single(selected('read__keychain'), get('/api/keychain-export'), LIST_ONLY),
  'GET /keychains/:id': inEach(selected('read__keychain'), async (w, id) => ({
    path: await keychainPath(w, id),
  })),
  'PATCH /keychains/:id': inEach(selected('update__keychain'), async (w, id) => ({
    path: await keychainPath(w, id),
    json: { name: 'Renamed' },
  })),
  'DELETE /keychains/:id': inEach(selected('delete__keychain'), async (w, id) => ({
    path: await keychainPath(w, id),
  })),
  // A keychain deleted (soft) for each call: a restore brings it back once.
  'POST /keychains/:id/restore': inEach(selected('delete__keychain'), async (w, id) => {
    const now = w.t.clock.now()
    const [row] = await w.t.db
      .insert(keychains)
      .values({ organizationId: id, name: 'Deleted', createdAt: now, updatedAt: now, deletedAt: now })
      .returning({ id: keychains.id })
    return { path: `/api/keychains/${row!.id}/restore` }
  }),
  'GET /keychains/:id/custody-log': inEach(selected('read__keychain'), async (w, id) => ({
    path: await keychainPath(w, id, '/custody-log'),
  })),
  'POST /keychains/:id/keys': inEach(selected('create__key'), async (w, id) => ({
    path: await keychainPath(w, id, '/keys'),
    json: { type: 'KEY', name: 'K' },
  })),
  'PATCH /keychains/:id/keys/:keyId': inEach(selected('update__key'), async (w, id) => ({
    path: await keyPath(w, id),
    json: { name: 'Renamed' },
  })),
  'DELETE /keychains/:id/keys/:keyId': inEach(selected('delete__key'), async (w, id) => ({
    path: await keyPath(w, id),
  })),

  'GET /tags': single(selected('read__tag'), get('/api/tags'), LIST_ONLY),
  'POST /tag-labels': inEach(selected('read__tag'), async (w, id) => ({
    path: '/api/tag-labels',
    json: { format: 'avery-l7160', selection: { by: 'ids', ids: [(await w.tag(id)).id] } },
  })),
  'POST /tag-labels/pdf': inEach(selected('read__tag'), async (w, id) => ({
    path: '/api/tag-labels/pdf',
    json: { format: 'dymo-11352', selection: { by: 'ids', ids: [(await w.tag(id)).id] } },
  })),
  'PUT /tags/:id/lost': inEach(selected('update__tag'), async (w, id) => ({
    path: `/api/tags/${(await w.tag(id)).id}/lost`,
  })),
  'DELETE /tags/:id/lost': inEach(selected('update__tag'), async (w, id) => ({
    path: `/api/tags/${(await w.tag(id)).id}/lost`,
  })),
  'POST /tags/:id/replacements': inEach(selected('create__order'), async (w, id) => ({
    path: `/api/tags/${(await w.tag(id)).id}/replacements`,
  })),
  'GET /tags/:publicId': inEach('public', async (w, id) => ({ path: await tagPath(w, id) })),
  'POST /tags/:publicId/found-reports': inEach('public', async (w, id) => ({
    path: await tagPath(w, id, '/found-reports'),
    json: REPORT,
  })),

  'GET /prices': single('public', get('/api/prices'), NO_RESOURCE),
  'GET /plans': single('signedIn', get('/api/plans'), NO_RESOURCE),

  'GET /cart': single(selected('read__cart'), get('/api/cart'), LIST_ONLY),
  'GET /cart/tag-numbers': single(selected('create__order'), get('/api/cart/tag-numbers'), LIST_ONLY),
  'POST /cart/items': single(
    selected('update__cart'),
    async () => ({ path: '/api/cart/items', json: TAG_ITEM }),
    CREATE_ONLY,
  ),
  'DELETE /cart/items/:id': {
    access: selected('update__cart'),
    own: async (w, caller) => ({ path: `/api/cart/items/${await cartLine(w, caller, w.own)}` }),
    foreign: async (w) => ({
      path: `/api/cart/items/${(await putTagsInCart(w.t, { userId: w.foreignAdminId, organizationId: w.foreign })).id}`,
    }),
  },
  'DELETE /cart': single(selected('update__cart'), async () => ({ path: '/api/cart' }), LIST_ONLY),
  'POST /cart/checkout': ordersOwnCart('/api/cart/checkout'),
  'POST /orders': ordersOwnCart('/api/orders'),
  'GET /orders': single(readOrders, get('/api/orders'), LIST_ONLY),
  'GET /orders/:id': inEach(readOrders, async (w, id) => ({ path: await orderPath(w, id) })),
  'GET /orders/:id/details': inEach(readOrders, async (w, id) => ({
    path: await orderPath(w, id, '/details', { status: 'PAID' }),
  })),
  'GET /organizations/:id/orders': inEach(inPath('read__order'), async (_w, id) => ({
    path: `/api/organizations/${id}/orders`,
  })),
  'POST /orders/:id/sessions': orderAction(selected('create__order'), '/sessions', {}),
  'POST /orders/:id/checks': orderAction(orOperator(selected('create__order')), '/checks', { session: true }),
  'POST /orders/:id/confirmations': orderAction('operator', '/confirmations', { status: 'PAID' }),
  'POST /orders/:id/productions': orderAction('operator', '/productions', { status: 'CONFIRMED' }),
  'POST /orders/:id/shipments': orderAction('operator', '/shipments', { status: 'PRODUCING' }),
  'POST /orders/:id/deliveries': orderAction('operator', '/deliveries', { status: 'SHIPPED' }),
  'POST /orders/:id/tags-exports': orderAction(readOrders, '/tags-exports', { status: 'PAID' }),

  'GET /organizations/:id/subscription': inEach(inPath('read__subscription'), async (_w, id) => ({
    path: `/api/organizations/${id}/subscription`,
  })),

  'GET /payments/local/:sessionId': inEach('public', async (w, id) => ({ path: await sandboxPath(w, id) })),
  'POST /payments/local/:sessionId/:outcome': inEach('public', async (w, id) => ({
    path: await sandboxPath(w, id, '/pay'),
  })),
  'POST /payments/stripe/webhook': single(
    'public',
    async (w) => {
      // A verified event of a type the server ignores: acknowledged without calling Stripe.
      const body = JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'customer.created' })
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: MATRIX_STRIPE.stripeWebhookSecret,
        timestamp: Math.floor(w.t.clock.now().getTime() / 1000),
      })
      return { path: '/api/payments/stripe/webhook', body, headers: { 'stripe-signature': signature } }
    },
    'called by Stripe, not by a user: the signature is the credential',
  ),

  'GET /keychains/:id/transfers': inEach(selected('read__keychain'), async (w, id) => ({
    path: await keychainPath(w, id, '/transfers'),
  })),
  'POST /keychains/:id/transfers': inEach(selected('create__transfer'), async (w, id) => ({
    path: await keychainPath(w, id, '/transfers'),
    json: {
      recipient: { kind: 'member', userId: w.callers.CONTACT.id },
      fromDate: parisDay(w.t),
      toDate: parisDay(w.t, 2),
    },
  })),
  'GET /keychains/:id/transfers/overlaps': inEach(selected('create__transfer'), async (w, id) => ({
    path: await keychainPath(
      w,
      id,
      `/transfers/overlaps?fromDate=${parisDay(w.t)}&toDate=${parisDay(w.t, 2)}`,
    ),
  })),
  'GET /users/:id/holdings': aboutOneself('holdings'),
  'GET /users/:id/transfers': aboutOneself('transfers'),
  'GET /transfers': single(selected('read__transfer'), get('/api/transfers'), LIST_ONLY),
  'GET /transfers/requests': single('signedIn', get('/api/transfers/requests'), LIST_ONLY),
  'GET /sync/changes': single(selected('read__transfer'), get('/api/sync/changes'), LIST_ONLY),
  'GET /transfers/:id': {
    access: 'signedIn',
    own: async (w, caller) => ({ path: `/api/transfers/${(await w.transfer(w.own, caller)).id}` }),
    foreign: async (w) => ({ path: `/api/transfers/${(await w.transfer(w.foreign, null)).id}` }),
  },
  'GET /transfers/:id/receipt': {
    access: 'signedIn',
    own: async (w, caller) => ({ path: `/api/transfers/${await receiptOf(w, w.own, caller)}/receipt` }),
    foreign: async (w) => ({ path: `/api/transfers/${await receiptOf(w, w.foreign, null)}/receipt` }),
  },
  'GET /transfers/:id/receipt/pdf': {
    access: 'signedIn',
    own: async (w, caller) => ({ path: `/api/transfers/${await receiptOf(w, w.own, caller)}/receipt/pdf` }),
    foreign: async (w) => ({ path: `/api/transfers/${await receiptOf(w, w.foreign, null)}/receipt/pdf` }),
  },
  'DELETE /transfers/:id': {
    access: selected('delete__transfer'),
    own: async (w, caller) => ({ path: `/api/transfers/${(await w.transfer(w.own, caller)).id}` }),
    foreign: async (w) => ({ path: `/api/transfers/${(await w.transfer(w.foreign, null)).id}` }),
  },
  'GET /activity': single(selected('read__activity'), get('/api/activity'), LIST_ONLY),
  'GET /activity/export': single(selected('read__activity'), get('/api/activity/export'), LIST_ONLY),
  'GET /activity/verification': single(
    selected('read__activity'),
    get('/api/activity/verification'),
    LIST_ONLY,
  ),
  'GET /activity/head': single(selected('read__activity'), get('/api/activity/head'), LIST_ONLY),
  'GET /activity/public-key': single('public', get('/api/activity/public-key'), NO_RESOURCE),
  'GET /found-reports': single(selected('read__found_report'), get('/api/found-reports'), LIST_ONLY),
  'GET /found-reports/:id': inEach(selected('read__found_report'), async (w, id) => ({
    path: await foundReportPath(w, id),
  })),
  'PATCH /found-reports/:id': inEach(selected('update__found_report'), async (w, id) => ({
    path: await foundReportPath(w, id),
    json: { status: 'RESOLVED' },
  })),
  'POST /found-reports/:id/replies': inEach(selected('update__found_report'), async (w, id) => ({
    path: await foundReportPath(w, id, '/replies'),
    json: { message: 'Thank you, we will call you.' },
  })),
  'GET /reports/holdings': aboutAPerson('/api/reports/holdings'),
  'GET /reports/holdings/transfers': aboutAPerson('/api/reports/holdings/transfers'),
  'GET /reports/holdings/export': aboutAPerson('/api/reports/holdings/export'),
  'GET /reports/leavers': single(selected('read__activity'), get('/api/reports/leavers'), LIST_ONLY),
  'GET /reports/overdue': aboutAPerson('/api/reports/overdue'),
  'GET /reports/overdue/export': aboutAPerson('/api/reports/overdue/export'),
  'GET /reports/unseen': aboutAPerson('/api/reports/unseen'),
  'GET /reports/unseen/export': aboutAPerson('/api/reports/unseen/export'),
  'GET /reports/monthly': single(selected('read__activity'), get('/api/reports/monthly'), LIST_ONLY),
  'GET /webhooks': single(selected('manage__webhook'), get('/api/webhooks'), LIST_ONLY),
  'POST /webhooks': single(
    selected('manage__webhook'),
    async () => ({
      path: '/api/webhooks',
      json: { url: MATRIX_WEBHOOK_URL, eventTypes: ['transfer.authorized'] },
    }),
    CREATE_ONLY,
  ),
  'PATCH /webhooks/:id': inEach(selected('manage__webhook'), async (w, id) => ({
    path: await webhookPath(w, id),
    json: { enabled: false },
  })),
  'DELETE /webhooks/:id': inEach(selected('manage__webhook'), async (w, id) => ({
    path: await webhookPath(w, id),
  })),
  'POST /webhooks/:id/secret-rotations': inEach(selected('manage__webhook'), async (w, id) => ({
    path: await webhookPath(w, id, '/secret-rotations'),
  })),
  'GET /webhooks/:id/deliveries': inEach(selected('manage__webhook'), async (w, id) => ({
    path: await webhookPath(w, id, '/deliveries'),
  })),
  'POST /webhooks/:id/tests': inEach(selected('manage__webhook'), async (w, id) => ({
    path: await webhookPath(w, id, '/tests'),
  })),
  'GET /reports/monthly/export': single(
    selected('read__activity'),
    get('/api/reports/monthly/export'),
    LIST_ONLY,
  ),
  'GET /calendar-feeds': single('signedIn', get('/api/calendar-feeds'), LIST_ONLY),
  'POST /calendar-feeds': single(
    'signedIn',
    async () => ({ path: '/api/calendar-feeds', json: { scope: 'personal' } }),
    'makes the caller’s own feed: nothing foreign to name',
  ),
  'DELETE /calendar-feeds/:id': {
    access: 'signedIn',
    own: async (w, caller) => ({
      path: `/api/calendar-feeds/${(await w.calendarFeed(caller?.id ?? w.callers.ADMIN.id)).id}`,
    }),
    foreign: async (w) => ({ path: `/api/calendar-feeds/${(await w.calendarFeed(w.foreignAdminId)).id}` }),
  },
  'GET /api-tokens': single('signedIn', get('/api/api-tokens'), LIST_ONLY),
  'POST /api-tokens': single(
    'signedIn',
    async () => ({ path: '/api/api-tokens', json: { name: 'Matrix' } }),
    'makes the caller’s own token: nothing foreign to name',
  ),
  'DELETE /api-tokens/:id': {
    access: 'signedIn',
    own: async (w, caller) => ({
      path: `/api/api-tokens/${await w.apiToken({ userId: caller?.id ?? w.callers.ADMIN.id })}`,
    }),
    foreign: async (w) => ({ path: `/api/api-tokens/${await w.apiToken({ userId: w.foreignAdminId })}` }),
  },
  'GET /organizations/:id/api-tokens': inEach(inPath('update__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}/api-tokens`,
  })),
  'POST /organizations/:id/api-tokens': inEach(inPath('update__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}/api-tokens`,
    json: { name: 'Matrix', role: 'MEMBER' },
  })),
  'DELETE /organizations/:id/api-tokens/:tokenId': inEach(inPath('update__organization'), async (w, id) => ({
    path: `/api/organizations/${id}/api-tokens/${await w.apiToken({ userId: id === w.own ? w.callers.ADMIN.id : w.foreignAdminId, organizationId: id })}`,
  })),
  'GET /organizations/:id/identity-provider': inEach(inPath('update__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}/identity-provider`,
  })),
  'PUT /organizations/:id/identity-provider': inEach(inPath('update__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}/identity-provider`,
    json: { issuer: await matrixIdpIssuer(), ...MATRIX_IDP_CLIENT, defaultRole: 'MEMBER' },
  })),
  'DELETE /organizations/:id/identity-provider': inEach(inPath('update__organization'), async (w, id) => {
    await coveredDomain(w, id)
    return { path: `/api/organizations/${id}/identity-provider` }
  }),
  'POST /organizations/:id/identity-domains': inEach(inPath('update__organization'), async (_w, id) => ({
    path: `/api/organizations/${id}/identity-domains`,
    json: { domain: `new${id.slice(0, 8)}.matrix.example` },
  })),
  'POST /organizations/:id/identity-domains/:domain/verification': inEach(
    inPath('update__organization'),
    async (w, id) => ({
      path: `/api/organizations/${id}/identity-domains/${await coveredDomain(w, id)}/verification`,
    }),
  ),
  'DELETE /organizations/:id/identity-domains/:domain': inEach(
    inPath('update__organization'),
    async (w, id) => ({
      path: `/api/organizations/${id}/identity-domains/${await coveredDomain(w, id)}`,
    }),
  ),
  'GET /auth/oidc/coverage': single(
    'public',
    async (w) => ({ path: `/api/auth/oidc/coverage?email=ada@${await coveredDomain(w, w.own)}` }),
    NO_RESOURCE,
  ),
  'GET /auth/oidc/start': single(
    'public',
    async (w) => ({ path: `/api/auth/oidc/start?email=ada@${await coveredDomain(w, w.own)}` }),
    NO_RESOURCE,
  ),
  'GET /auth/oidc/callback': single(
    'public',
    async () => ({ path: '/api/auth/oidc/callback?code=x&state=never-issued' }),
    'called by the browser on its way back from the identity provider: the state is the credential',
  ),
  'GET /calendar/:token': single(
    'public',
    async (w) => ({ path: `/api/calendar/${(await w.calendarFeed(w.foreignAdminId)).token}.ics` }),
    'read by calendar apps, not by a user: the token is the credential',
  ),
  'POST /transfers/:id/chase': {
    access: selected('create__transfer'),
    own: async (w) => ({ path: `/api/transfers/${(await w.overdueTransfer(w.own)).id}/chase` }),
    foreign: async (w) => ({ path: `/api/transfers/${(await w.overdueTransfer(w.foreign)).id}/chase` }),
  },
  'POST /transfers/:id/extensions': {
    access: 'signedIn',
    own: async (w, caller) => ({
      path: `/api/transfers/${(await w.transfer(w.own, caller)).id}/extensions`,
      json: { toDate: parisDay(w.t, 5) },
      headers: { 'idempotency-key': randomUUID() },
    }),
    foreign: async (w) => ({
      path: `/api/transfers/${(await w.transfer(w.foreign, null)).id}/extensions`,
      json: { toDate: parisDay(w.t, 5) },
      headers: { 'idempotency-key': randomUUID() },
    }),
  },
  'POST /transfers/:id/extensions/:extensionId': {
    access: selected('create__transfer'),
    own: async (w) => ({ path: await w.pendingExtension(w.own), json: { decision: 'refuse' } }),
    foreign: async (w) => ({ path: await w.pendingExtension(w.foreign), json: { decision: 'refuse' } }),
  },
  'POST /transfers/:id/pickups': {
    access: 'signedIn',
    own: async (w, caller) => ({
      path: `/api/transfers/${(await w.transfer(w.own, caller)).id}/pickups`,
      headers: { 'idempotency-key': randomUUID() },
    }),
    foreign: async (w) => ({
      path: `/api/transfers/${(await w.transfer(w.foreign, null)).id}/pickups`,
      headers: { 'idempotency-key': randomUUID() },
    }),
  },
  'GET /stats/dashboard': single('signedIn', get('/api/stats/dashboard'), LIST_ONLY),
  'GET /stats/dashboard/charts': single(
    selected('read__keychain'),
    get('/api/stats/dashboard/charts'),
    LIST_ONLY,
  ),

  'POST /scans': single(
    selected('create__scan'),
    async (w) => ({
      path: '/api/scans',
      json: { value: (await w.tag(w.own)).code },
      headers: { 'idempotency-key': randomUUID() },
    }),
    'resolves a value rather than naming a resource: a foreign tag answers 201 {status: "foreign"}',
  ),

  // Places, hooks and where keychains live (server/modules/places).
  'GET /places': single(selected('read__place'), get('/api/places'), LIST_ONLY),
  'GET /places/:id': inEach(selected('read__place'), async (w, id) => ({
    path: `/api/places/${(await makeBoard(w.t, id)).board.id}`,
  })),
  'POST /places': inEach(selected('create__place'), async (w, id) => ({
    path: '/api/places',
    json: { name: 'Room', kind: 'ROOM', parentId: (await makePlace(w.t, id, { kind: 'SITE' })).id },
  })),
  'PATCH /places/:id': inEach(selected('update__place'), async (w, id) => ({
    path: `/api/places/${(await makePlace(w.t, id, { kind: 'SITE' })).id}`,
    json: { name: 'Renamed', stocktakeEvery: 'MONTHLY' },
  })),
  'DELETE /places/:id': inEach(selected('delete__place'), async (w, id) => ({
    path: `/api/places/${(await makeBoard(w.t, id)).board.id}`,
  })),
  'POST /places/:id/hooks': inEach(selected('update__place'), async (w, id) => ({
    path: `/api/places/${(await makeBoard(w.t, id, { count: 0 })).board.id}/hooks`,
    json: { prefix: 'A-', from: 1, to: 3 },
  })),
  'DELETE /places/:id/hooks/:hookId': inEach(selected('update__place'), async (w, id) => {
    const { board, hooks } = await makeBoard(w.t, id, { count: 1 })
    return { path: `/api/places/${board.id}/hooks/${hooks[0]!.id}` }
  }),
  'POST /places/:id/labels': inEach(selected('read__place'), async (w, id) => ({
    path: `/api/places/${(await makeBoard(w.t, id)).board.id}/labels`,
    json: { format: 'dymo-11352' },
  })),
  'POST /places/:id/labels/pdf': inEach(selected('read__place'), async (w, id) => ({
    path: `/api/places/${(await makeBoard(w.t, id)).board.id}/labels/pdf`,
    json: { format: 'brother-62x29', withPlace: false },
  })),
  'GET /keychains/:id/location': inEach(selected('read__place'), async (w, id) => ({
    path: await keychainPath(w, id, '/location'),
  })),
  'PUT /keychains/:id/home': inEach(selected('update__keychain'), async (w, id) => ({
    path: await keychainPath(w, id, '/home'),
    json: { hookId: (await makeBoard(w.t, id, { count: 1 })).hooks[0]!.id },
  })),
  // The hook is always the own organization's: a foreign keychain is the 404.
  'POST /keychains/:id/hook-scans': inEach(selected('read__place'), async (w, id) => {
    const { hooks } = await makeBoard(w.t, w.own, { count: 1 })
    return {
      path: await keychainPath(w, id, '/hook-scans'),
      json: { value: hookLabelUrl(w.t.config.publicUrl, hooks[0]!.publicId) },
      headers: { 'idempotency-key': randomUUID() },
    }
  }),

  // Stocktakes (server/modules/stocktakes).
  'GET /stocktakes': single(selected('read__stocktake'), get('/api/stocktakes'), LIST_ONLY),
  'GET /stocktakes/due': single(selected('read__stocktake'), get('/api/stocktakes/due'), LIST_ONLY),
  'POST /stocktakes': inEach(selected('create__stocktake'), async (w, id) => ({
    path: '/api/stocktakes',
    json: { placeId: (await makePlace(w.t, id, { kind: 'SITE' })).id },
  })),
  'GET /stocktakes/:id': inEach(selected('read__stocktake'), async (w, id) => ({
    path: `/api/stocktakes/${await openStocktake(w.t, id)}`,
  })),
  'POST /stocktakes/:id/scans': inEach(selected('scan__stocktake'), async (w, id) => ({
    path: `/api/stocktakes/${await openStocktake(w.t, id)}/scans`,
    json: { value: 'MTX-00001', deviceId: '00000000-0000-4000-8000-0000000000aa', deviceSeq: 1 },
    headers: { 'idempotency-key': randomUUID() },
  })),
  'PUT /stocktakes/:id/devices/:deviceId': inEach(selected('scan__stocktake'), async (w, id) => ({
    path: `/api/stocktakes/${await openStocktake(w.t, id)}/devices/00000000-0000-4000-8000-0000000000aa`,
    json: { made: 1 },
  })),
  'POST /stocktakes/:id/close': inEach(selected('update__stocktake'), async (w, id) => ({
    path: `/api/stocktakes/${await openStocktake(w.t, id)}/close`,
  })),
  'GET /stocktakes/:id/report/csv': inEach(selected('read__stocktake'), async (w, id) => ({
    path: `/api/stocktakes/${await openStocktake(w.t, id)}/report/csv`,
  })),
  'GET /stocktakes/:id/report/pdf': inEach(selected('read__stocktake'), async (w, id) => ({
    path: `/api/stocktakes/${await openStocktake(w.t, id)}/report/pdf`,
  })),

  // Device keys (server/modules/devices): a person's own, from a session.
  'GET /devices': single('signedIn', get('/api/devices'), LIST_ONLY),
  'POST /devices': single(
    'signedIn',
    // The caller's device registered again with the same key: answered as it is (200).
    async (w, caller) => {
      const device = caller ? await storedDevice(w.t, caller.id) : await makeDevice({ id: randomUUID() })
      return { path: '/api/devices', json: { id: device.id, publicKey: device.publicKey, name: 'Phone' } }
    },
    'registers a device of the caller’s own: nothing foreign to name',
  ),
  'DELETE /devices/:id': {
    access: 'signedIn',
    own: async (w, caller) => ({
      path: `/api/devices/${(await storedDevice(w.t, caller?.id ?? w.callers.ADMIN.id)).id}`,
    }),
    foreign: async (w) => ({ path: `/api/devices/${(await storedDevice(w.t, w.foreignAdminId)).id}` }),
  },

  // Notice settings and push subscriptions (server/modules/push): a person's own, from a session.
  'GET /notice-settings': single('signedIn', get('/api/notice-settings'), LIST_ONLY),
  'PUT /notice-settings': single(
    'signedIn',
    async () => ({ path: '/api/notice-settings', json: { channels: { reminder: 'BOTH' } } }),
    'sets the caller’s own channels: nothing foreign to name',
  ),
  'GET /push-subscriptions': single('signedIn', get('/api/push-subscriptions'), LIST_ONLY),
  'GET /badge': single('signedIn', get('/api/badge'), LIST_ONLY),
  'PUT /push-subscriptions': single(
    'signedIn',
    // The caller's device subscribed again (every app start): refreshed (200).
    async (w, caller) => ({
      path: '/api/push-subscriptions',
      json: {
        endpoint: (await storedPushSubscription(w.t, caller?.id ?? w.callers.ADMIN.id)).endpoint,
        keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
        name: 'Phone',
      },
    }),
    'subscribes the caller’s own device: nothing foreign to name',
  ),
  'DELETE /push-subscriptions/:id': {
    access: 'signedIn',
    own: async (w, caller) => ({
      path: `/api/push-subscriptions/${(await storedPushSubscription(w.t, caller?.id ?? w.callers.ADMIN.id)).id}`,
    }),
    foreign: async (w) => ({
      path: `/api/push-subscriptions/${(await storedPushSubscription(w.t, w.foreignAdminId)).id}`,
    }),
  },

  // Handovers from phone to phone (server/modules/handovers): the caller is the giver of the own one.
  'GET /handovers': single(selected('read__handover'), get('/api/handovers'), LIST_ONLY),
  'GET /handovers/keys': single(selected('read__handover'), get('/api/handovers/keys'), LIST_ONLY),
  'POST /handovers': {
    access: selected('create__handover'),
    // Applied before: the same pair again answers it (200).
    own: async (w, caller) => ({
      path: '/api/handovers',
      json: await handoverBody(w, w.own, caller?.id ?? w.callers.ADMIN.id),
    }),
    foreign: async (w) => ({
      path: '/api/handovers',
      json: await handoverBody(w, w.foreign, w.foreignAdminId),
    }),
  },
  'GET /handovers/:id': handoverPath(''),
  'GET /handovers/:id/receipt.json': handoverPath('/receipt.json'),
  'GET /handovers/:id/receipt.pdf': handoverPath('/receipt.pdf'),
}

/** An applied handover's pair, given by `giverId` in the organization. */
async function handoverBody(w: World, organizationId: string, giverId: string) {
  const { offer, acceptance } = await appliedHandover(w.t, organizationId, giverId)
  return { offer, acceptance }
}

/** A handover the caller gave in the own organization; the foreign one's admin gave the foreign one. */
function handoverPath(suffix: string): Fixture {
  return {
    access: selected('read__handover'),
    own: async (w, caller) => ({
      path: `/api/handovers/${(await appliedHandover(w.t, w.own, caller?.id ?? w.callers.ADMIN.id)).offerId}${suffix}`,
    }),
    foreign: async (w) => ({
      path: `/api/handovers/${(await appliedHandover(w.t, w.foreign, w.foreignAdminId)).offerId}${suffix}`,
    }),
  }
}

/** A transfer picked up by its recipient (the caller in the own organization) with its receipt; gives its id. */
async function receiptOf(w: World, organizationId: string, caller: { id: string } | null): Promise<string> {
  const transfer = await w.transfer(organizationId, caller)
  const now = w.t.clock.now()
  const [pickup] = await w.t.db
    .insert(transferPickups)
    .values({ transferId: transfer.id, kind: 'PICKUP', byUserId: transfer.recipientId, serverTime: now })
    .returning()
  const person = { id: transfer.recipientId, name: 'Matrix', email: 'matrix@example.test' }
  await w.t.db.insert(transferReceipts).values({
    organizationId,
    transferId: transfer.id,
    pickupId: pickup!.id,
    recipientId: transfer.recipientId,
    details: {
      organization: { id: organizationId, name: 'Matrix' },
      keychain: { id: transfer.keychainId, name: 'Lent' },
      keys: [],
      fromDate: transfer.fromDate,
      toDate: transfer.toDate,
      recipient: person,
      handedOverBy: null,
    },
    typedName: 'Matrix',
    locale: 'en',
    acceptedAt: now,
    serverTime: now,
  })
  return transfer.id
}

/** A push subscription of `userId`'s, stored directly. */
async function storedPushSubscription(t: TestApp, userId: string) {
  const now = t.clock.now()
  const [row] = await t.db
    .insert(pushSubscriptions)
    .values({
      userId,
      endpoint: `https://push.example/${randomUUID()}`,
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'A'.repeat(22),
      name: 'Phone',
      createdAt: now,
      seenAt: now,
    })
    .returning({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint })
  return row!
}
