import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { CAVE_TAG, transfer } from '../tests/offline-rows.ts'
import { first, keeps, messages } from '../tests/schema-checks.ts'
import {
  EmailTokenAcceptedSchema,
  EmailTokenRequestSchema,
  PhoneSchema,
  ProfileSchema,
  ProfileUpdateSchema,
  SessionRequestSchema,
  SIGN_IN_CODE_LENGTH,
  SignInCodeSchema,
} from './auth.ts'
import {
  AlphaCodeSchema,
  BILLING_CYCLES,
  CartItemCreateSchema,
  CartSchema,
  CheckoutSchema,
  OrderDetailsSchema,
  OrderListQuerySchema,
  OrderSchema,
  OrganizationSubscriptionSchema,
  PaymentSessionSchema,
  PlanConfigurationSchema,
  PlanListSchema,
  TagConfigurationSchema,
  TagQuantitySchema,
} from './commerce.ts'
import {
  IdParamsSchema,
  optionalText,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PageQuerySchema,
  requiredText,
} from './common.ts'
import { ApiErrorSchema, ErrorCode } from './errors.ts'
import { HealthSchema, LivenessSchema } from './health.ts'
import {
  CustodyLogSchema,
  KeyCreateSchema,
  KeychainCreateSchema,
  KeychainListQuerySchema,
  KeychainPageSchema,
  KeychainSchema,
  KeychainUpdateSchema,
  KeyParamsSchema,
  KeyUpdateSchema,
  TRANSFER_CUSTODY_REASONS,
} from './keychains.ts'
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_S,
  LOCALES,
  localeOfCookies,
} from './locale.ts'
import {
  AddressSchema,
  DEFAULT_TIME_ZONE,
  DefaultOrganizationSchema,
  DefaultOrganizationUpdateSchema,
  InvitationSchema,
  MemberListSchema,
  MemberUpdateSchema,
  OrganizationCreateSchema,
  OrganizationListSchema,
  OrganizationUpdateSchema,
  STOCKTAKE_ROLES,
} from './organizations.ts'
import { PUBLIC_PAGES } from './public-pages.ts'
import { ScanResultSchema } from './scans.ts'
import {
  SYNC_PAGE_DEFAULT,
  SYNC_PAGE_MAX,
  SYNC_PHASES,
  SYNC_RETENTION_MS,
  SyncPageSchema,
  SyncQuerySchema,
} from './sync.ts'
import {
  ColorSchema,
  FoundReportAcceptedSchema,
  FoundReportSchema,
  TagLandingSchema,
  TagListQuerySchema,
  TagPageSchema,
  TagPublicParamsSchema,
} from './tags.ts'
import { DashboardSchema, TransferPageSchema } from './transfers.ts'

/** The schemas of the API as specifications: what each keeps of a valid answer, and what it says to a wrong input. */

const ID = '00000000-0000-4000-8000-000000000001'
const person = { id: 'u1', email: 'lea@example.com', firstName: 'Léa', lastName: 'Martin' }
const address = {
  line1: '14 rue des Archives',
  line2: 'Bât. B',
  city: 'Paris',
  postalCode: '75004',
  country: 'FR',
}
const tagConfiguration = {
  name: 'Cave',
  alphaCode: 'AGC',
  startNumber: 1,
  foregroundColor: '#000000',
  backgroundColor: '#ffffff',
}
const planConfiguration = {
  billingCycle: 'YEARLY',
  recurringInterval: 'year',
  recurringIntervalCount: 1,
  quantity: 0,
  name: 'Pro',
}
const totals = {
  subtotalInCents: 1,
  discountInCents: 2,
  shippingInCents: 3,
  freeShipping: true,
  taxInCents: 4,
  totalInCents: 5,
}
const key = {
  id: 'k1',
  name: 'Porte',
  type: 'TAG',
  tag: { id: 't1', publicId: 'p', code: 'AGC-00001', name: 'T' },
}
const keychain = {
  id: 'kc1',
  organizationId: 'o1',
  organizationName: 'Org',
  name: 'Cave',
  custodian: person,
  keys: [key, { id: 'k2', name: 'Boîte', type: 'KEY', tag: null }],
  createdAt: 'c',
  updatedAt: 'u',
}

describe('answers keep every field', () => {
  it('of profiles, organizations, members and keychains', () => {
    keeps(ProfileSchema, {
      id: 'u1',
      email: 'a@b.fr',
      firstName: 'A',
      lastName: 'B',
      phoneNumber: '+33 1',
      locale: 'en',
      reminderMails: false,
      theme: 'dark',
      isOperator: true,
      selectedOrganizationId: null,
      permissions: ['read__tag'],
    })
    keeps(OrganizationListSchema, {
      data: [
        {
          id: 'o1',
          name: 'Org',
          address,
          timeZone: 'America/New_York',
          stocktakeRole: 'MANAGER',
          handoverReceivers: 'MEMBERS_AND_CONTACTS',
          role: 'CONTACT',
          createdAt: 'c',
        },
      ],
    })
    keeps(DefaultOrganizationSchema, { id: null })
    keeps(MemberListSchema, {
      data: ['INVITED', 'ACTIVE', 'DISABLED'].map((status) => ({
        ...person,
        role: 'MEMBER',
        status,
        joinedAt: 'j',
      })),
    })
    keeps(KeychainSchema, keychain)
    keeps(KeychainPageSchema, {
      data: [
        { id: 'kc1', name: 'Cave', custodian: null, keyCount: 2, tagCodes: ['AGC-00001'], updatedAt: 'u' },
      ],
      nextCursor: 'next',
    })
    keeps(CustodyLogSchema, {
      data: [{ id: 'c1', at: 'a', by: person, from: null, to: person, reason: 'r' }],
    })
  })

  it('of transfers, tags, scans and the change feed', () => {
    const withPickup = transfer('tr-1', {
      status: 'RETURNING',
      authorizedBy: person,
      pickups: [{ id: 'p1', kind: 'PICKUP', by: person, clientTime: null, serverTime: 's', fromQueue: true }],
      next: 'RETURN',
      expiresAt: null,
      cancelledAt: 'x',
      chasedAt: 'c',
      extension: {
        id: 'e1',
        status: 'APPROVED',
        toDate: '2030-01-20',
        previousToDate: '2030-01-17',
        requestedAt: 'r',
        decidedAt: 'd',
      },
    })
    keeps(TransferPageSchema, {
      data: [withPickup, transfer('tr-2', { next: null, refusal: 'keychain_out' })],
      nextCursor: null,
    })
    keeps(TagPageSchema, { data: [CAVE_TAG, { ...CAVE_TAG, key: null }], nextCursor: null })
    keeps(TagLandingSchema, {
      view: 'member',
      tag: CAVE_TAG,
      keychain: { id: 'kc', name: 'Cave', custodian: person },
      organization: { id: 'o1', name: 'Org' },
      permissions: ['read__tag'],
    })
    keeps(TagLandingSchema, { view: 'found', code: 'AGC-00042', organization: { name: 'Org' } })
    keeps(ScanResultSchema, {
      status: 'resolved',
      scanId: 's1',
      tag: CAVE_TAG,
      key,
      keychain: { id: 'kc', name: 'Cave', custodian: null },
      actions: ['pickup__transfer'],
      transfer: withPickup,
    })
    keeps(ScanResultSchema, { status: 'foreign', scanId: 's1', publicId: 'p' })
    keeps(ScanResultSchema, { status: 'unknown', scanId: 's1', value: 'x' })
    for (const phase of SYNC_PHASES)
      keeps(SyncPageSchema, {
        reset: true,
        phase,
        organizationId: 'o1',
        keychains: [keychain, { ...keychain, id: 'kc2', custodySeq: 7 }],
        tags: [CAVE_TAG],
        transfers: [withPickup],
        deviceKeys: [
          {
            id: 'd1',
            userId: 'u1',
            person,
            publicKey: 'k',
            fingerprint: 'ABCD1234',
            expiresAt: 'e',
            revokedAt: null,
          },
        ],
        deleted: { keychains: ['kc9'] },
        cursor: 'c',
        more: false,
        progress: { done: 1, total: 2 },
      })
    keeps(DashboardSchema, {
      organization: {
        id: 'o1',
        keychains: 1,
        transfers: 2,
        users: 3,
        active: { scheduled: 4, transferred: 5, returning: 6 },
        expired: { scheduled: 7, returning: 8 },
        returns: {
          dueToday: [
            {
              transferId: 't1',
              keychainId: 'k1',
              keychainName: 'Cave',
              holder: person,
              toDate: '2030-01-15',
              chasedAt: null,
            },
          ],
          overdue: [
            {
              transferId: 't2',
              keychainId: 'k2',
              keychainName: 'Loge',
              holder: person,
              toDate: '2030-01-10',
              chasedAt: 'c',
            },
          ],
        },
      },
      requests: { open: 9 },
    })
  })

  it('of plans, carts, orders and subscriptions', () => {
    keeps(PlanListSchema, {
      data: [
        {
          id: 'p',
          name: 'Pro',
          amountInCents: 1900,
          recurringInterval: 'month',
          recurringIntervalCount: 1,
          quantity: 10,
        },
      ],
    })
    keeps(CartSchema, {
      organizationId: 'o1',
      items: [
        {
          id: 'i1',
          productType: 'PLAN',
          productRefId: ID,
          quantity: 1,
          unitAmountInCents: 1,
          lineTotalInCents: 1,
          configuration: planConfiguration,
        },
        {
          id: 'i2',
          productType: 'TAG',
          productRefId: 'tag-standard',
          quantity: 10,
          unitAmountInCents: 1,
          lineTotalInCents: 10,
          configuration: tagConfiguration,
        },
      ],
      itemCount: 2,
      totals,
    })
    const order = {
      id: 'o',
      reference: 'TR-2026-000123',
      status: 'PRODUCING',
      organization: { id: 'o1', name: 'Org' },
      quantity: 10,
      createdAt: 'c',
      totals,
      lines: [
        {
          id: 'l',
          productType: 'ACCESSORY',
          productRefId: 'x',
          quantity: 1,
          unitAmountInCents: 1,
          lineTotalInCents: 1,
          configuration: tagConfiguration,
        },
      ],
      shippingAddress: address,
      actions: ['shipments', 'tags-exports'],
    }
    keeps(OrderDetailsSchema, {
      order,
      tags: [
        {
          id: 't',
          publicId: 'p',
          code: 'c',
          name: 'n',
          foregroundColor: '#000000',
          backgroundColor: '#ffffff',
          url: 'u',
        },
      ],
    })
    keeps(OrderSchema, { ...order, shippingAddress: null, status: 'DELIVERED' })
    keeps(PaymentSessionSchema, { url: 'u', provider: 'stripe' })
    keeps(PaymentSessionSchema, { url: 'u', provider: 'local' })
    keeps(OrganizationSubscriptionSchema, {
      subscription: {
        planId: 'p',
        planName: 'Pro',
        billingCycle: 'MONTHLY',
        status: 'EXPIRED',
        currentPeriodStart: 's',
        currentPeriodEnd: 'e',
        transfersPerMonth: 10,
        transfersUsedThisMonth: 3,
        allowanceRenewsAt: 'r',
      },
    })
    expect(BILLING_CYCLES).toEqual(['MONTHLY', 'YEARLY'])
  })

  it('of errors and health', () => {
    keeps(ApiErrorSchema, {
      error: {
        code: 'transfer_allowance_exceeded',
        message: 'm',
        issues: [{ path: 'email', message: 'x' }],
        allowed: ['PAID'],
        expectedUnitAmountInCents: 400,
        reason: 'before_window',
        used: 2,
        allowance: 2,
        renewsAt: 'r',
      },
    })
    // A stocktake refused for unsent scans names each device with what it made and what arrived.
    const unsent = { deviceId: 'd', person: null, made: 3, received: 1 }
    expect(v.is(ApiErrorSchema, { error: { code: 'c', message: 'm', unsent: [unsent] } })).toBe(true)
    for (const field of Object.keys(unsent)) {
      const { [field]: _left, ...without } = unsent as Record<string, unknown>
      expect(v.is(ApiErrorSchema, { error: { code: 'c', message: 'm', unsent: [without] } }), field).toBe(
        false,
      )
    }
    keeps(HealthSchema, {
      status: 'degraded',
      version: '1',
      database: { driver: 'postgres', state: 'down', latencyMs: null },
    })
    keeps(HealthSchema, {
      status: 'ok',
      version: '1',
      database: { driver: 'pglite', state: 'up', latencyMs: 3 },
    })
    keeps(LivenessSchema, { status: 'ok', version: '1' })
    keeps(EmailTokenAcceptedSchema, { status: 'sent' })
    keeps(FoundReportAcceptedSchema, { status: 'sent' })
  })
})

describe('error codes', () => {
  it('are the API’s, written out', () => {
    expect(ErrorCode).toEqual({
      badRequest: 'bad_request',
      validation: 'validation_failed',
      unsupportedMediaType: 'unsupported_media_type',
      unauthenticated: 'unauthenticated',
      forbidden: 'forbidden',
      notFound: 'not_found',
      methodNotAllowed: 'method_not_allowed',
      conflict: 'conflict',
      tagTaken: 'tag_taken',
      memberNamesLocked: 'member_names_locked',
      noOrganizationSelected: 'no_organization_selected',
      idempotencyKeyReused: 'idempotency_key_reused',
      originRejected: 'origin_rejected',
      rateLimited: 'rate_limited',
      signInFailed: 'sign_in_failed',
      ssoRequired: 'sso_required',
      priceMismatch: 'price_mismatch',
      invalidTransition: 'invalid_transition',
      cartEmpty: 'cart_empty',
      invalidSignature: 'invalid_signature',
      subscriptionRequired: 'subscription_required',
      transferAllowanceExceeded: 'transfer_allowance_exceeded',
      transferOverlap: 'transfer_overlap',
      pickupRefused: 'pickup_refused',
      extensionRefused: 'extension_refused',
      notOverdue: 'not_overdue',
      chasedRecently: 'chased_recently',
      finderUnreachable: 'finder_unreachable',
      repliesExhausted: 'replies_exhausted',
      photoTooLarge: 'photo_too_large',
      photoInvalid: 'photo_invalid',
      csvInvalid: 'csv_invalid',
      importRowsInvalid: 'import_rows_invalid',
      payloadTooLarge: 'payload_too_large',
      labelSelectionEmpty: 'label_selection_empty',
      labelSelectionTooLarge: 'label_selection_too_large',
      bulkSelectionTooLarge: 'bulk_selection_too_large',
      webhookLimitReached: 'webhook_limit_reached',
      stocktakeScansUnsent: 'stocktake_scans_unsent',
      placeTreeRefused: 'place_tree_refused',
      placeInUse: 'place_in_use',
      hooksRefused: 'hooks_refused',
      notAHookLabel: 'not_a_hook_label',
      keychainHeld: 'keychain_held',
      handoverRefused: 'handover_refused',
      internal: 'internal_error',
      unavailable: 'service_unavailable',
    })
  })
})

describe('locales and public pages', () => {
  it('are French by default, English too, remembered a year in a cookie', () => {
    expect(LOCALES).toEqual(['fr', 'en'])
    expect(DEFAULT_LOCALE).toBe('fr')
    expect(LOCALE_COOKIE).toBe('locale')
    expect(LOCALE_COOKIE_MAX_AGE_S).toBe(31_536_000)
    expect([isLocale('fr'), isLocale('en'), isLocale('de'), isLocale(undefined), isLocale(['fr'])]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ])
  })

  it.each([
    ['locale=en', 'en'],
    ['a=1; locale=en; b=2', 'en'],
    ['a=1;locale=fr', 'fr'],
    ['mylocale=en', null],
    ['locale=de', null],
    ['locale=', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('the cookie header %j says %j', (header, locale) => {
    expect(localeOfCookies(header)).toBe(locale)
  })

  it('prerender the landing and sign-in pages in both languages', () => {
    expect(PUBLIC_PAGES).toEqual([
      { page: 'landing', locale: 'fr', paths: ['/'], file: 'pages/fr/index.html' },
      { page: 'landing', locale: 'en', paths: ['/en', '/en/'], file: 'pages/en/index.html' },
      { page: 'sign-in', locale: 'fr', paths: ['/sign-in', '/sign-in/'], file: 'pages/fr/sign-in.html' },
      {
        page: 'sign-in',
        locale: 'en',
        paths: ['/en/sign-in', '/en/sign-in/'],
        file: 'pages/en/sign-in.html',
      },
    ])
  })
})

describe('pages and feeds', () => {
  it('take a limit from 1 to 100 (25 by default) and a cursor of at most 512 characters', () => {
    expect([PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX]).toEqual([25, 100])
    expect(v.parse(PageQuerySchema, { limit: '1', cursor: 'x'.repeat(512) })).toEqual({
      limit: 1,
      cursor: 'x'.repeat(512),
    })
    expect(v.parse(PageQuerySchema, { limit: '100' })).toEqual({ limit: 100 })
    expect(first(PageQuerySchema, { limit: '0' })).toBe('limit must be at least 1.')
    expect(first(PageQuerySchema, { limit: '101' })).toBe('limit must be at most 100.')
    expect(first(PageQuerySchema, { limit: '1.5' })).toBe('limit must be a whole number.')
    expect(first(PageQuerySchema, { limit: 'x10' })).toBe('limit must be a whole number.')
    expect(first(PageQuerySchema, { limit: '10x' })).toBe('limit must be a whole number.')
    expect(v.is(PageQuerySchema, { cursor: 'x'.repeat(513) })).toBe(false)
    expect(messages(IdParamsSchema, { id: 'nope' })).toEqual(['Malformed id.'])
  })

  it('read the change feed by pages of up to 2000 (500 by default), kept 30 days', () => {
    expect([SYNC_PAGE_DEFAULT, SYNC_PAGE_MAX, SYNC_RETENTION_MS]).toEqual([500, 2000, 30 * 86_400_000])
    expect(v.parse(SyncQuerySchema, { limit: '2000', cursor: 'c' })).toEqual({ limit: 2000, cursor: 'c' })
    expect(first(SyncQuerySchema, { limit: '2001' })).toBe('limit must be at most 2000.')
    expect(first(SyncQuerySchema, { limit: '0' })).toBe('limit must be at least 1.')
    expect(first(SyncQuerySchema, { limit: '-1' })).toBe('limit must be a whole number.')
    expect(v.is(SyncQuerySchema, { cursor: 'x'.repeat(1000) })).toBe(true)
    expect(messages(SyncQuerySchema, { cursor: 'x'.repeat(1001) })).toEqual(['Malformed cursor.'])
  })

  it('filter keychains, tags and orders', () => {
    expect(v.parse(KeychainListQuerySchema, { q: ' cave ', custodianId: ID })).toEqual({
      q: 'cave',
      custodianId: ID,
    })
    expect(v.is(KeychainListQuerySchema, { q: 'x'.repeat(121) })).toBe(false)
    expect(v.is(KeychainListQuerySchema, { q: 'x'.repeat(120) })).toBe(true)
    expect(v.parse(TagListQuerySchema, { unused: 'true', q: ' agc ' })).toEqual({ unused: 'true', q: 'agc' })
    expect(v.is(TagListQuerySchema, { unused: 'yes' })).toBe(false)
    expect(v.is(TagListQuerySchema, { q: 'x'.repeat(101) })).toBe(false)
    expect(v.is(TagListQuerySchema, { q: 'x'.repeat(100) })).toBe(true)
    expect(v.parse(OrderListQuerySchema, { status: 'PAID', limit: '5' })).toEqual({
      status: 'PAID',
      limit: 5,
    })
    expect(v.is(OrderListQuerySchema, { status: 'LOST' })).toBe(false)
    expect(v.parse(KeyParamsSchema, { id: ID, keyId: ID })).toEqual({ id: ID, keyId: ID })
    expect(v.parse(TagPublicParamsSchema, { publicId: 'abcdefghijklmnopqrst' })).toEqual({
      publicId: 'abcdefghijklmnopqrst',
    })
    expect(messages(TagPublicParamsSchema, { publicId: 'abc' })).toEqual(['Malformed tag id.'])
  })
})

describe('texts', () => {
  const name = requiredText(5, 'Name is required.', 'Name is too long.')
  const line2 = optionalText(5, 'Too long.')
  it.each([
    ['  Léa ', 'Léa'],
    ['12345', '12345'],
  ])('a required text keeps %j as %j', (input, output) => {
    expect(v.parse(name, input)).toBe(output)
  })
  it.each([
    [undefined, 'Name is required.'],
    ['   ', 'Name is required.'],
    ['123456', 'Name is too long.'],
    ['a\nb', 'Line breaks, tabs and other control characters are not allowed here.'],
    ['a\tb', 'Line breaks, tabs and other control characters are not allowed here.'],
    ['a\u0085b', 'Line breaks, tabs and other control characters are not allowed here.'],
    ['a\uD800', 'Line breaks, tabs and other control characters are not allowed here.'],
  ])('a required text refuses %j: %s', (input, message) => {
    expect(messages(name, input)).toEqual([message])
  })
  it('an optional text is empty when missing, and follows the same rules', () => {
    expect(v.parse(line2, undefined)).toBe('')
    expect(v.parse(line2, ' ab ')).toBe('ab')
    expect(messages(line2, '123456')).toEqual(['Too long.'])
    expect(messages(line2, 'a\rb')).toEqual([
      'Line breaks, tabs and other control characters are not allowed here.',
    ])
  })
})

describe('inputs', () => {
  it('an address: lines, city, postal code, a two-letter country', () => {
    expect(v.parse(AddressSchema, { ...address, line2: undefined, country: ' fr ' })).toEqual({
      ...address,
      line2: '',
      country: 'FR',
    })
    expect(messages(AddressSchema, { ...address, line1: ' ' })).toEqual(['Address is required.'])
    expect(messages(AddressSchema, { ...address, line1: 'x'.repeat(201) })).toEqual(['Address is too long.'])
    expect(messages(AddressSchema, { ...address, line2: 'x'.repeat(201) })).toEqual([
      'Address line 2 is too long.',
    ])
    expect(messages(AddressSchema, { ...address, city: '' })).toEqual(['City is required.'])
    expect(messages(AddressSchema, { ...address, city: 'x'.repeat(101) })).toEqual(['City is too long.'])
    expect(messages(AddressSchema, { ...address, postalCode: '' })).toEqual(['Postal code is required.'])
    expect(messages(AddressSchema, { ...address, postalCode: 'x'.repeat(21) })).toEqual([
      'Postal code is too long.',
    ])
    expect(first(AddressSchema, { ...address, country: ' ' })).toBe('Country is required.')
    expect(messages(AddressSchema, { ...address, country: 1 })).toEqual(['Country is required.'])
    expect(messages(AddressSchema, { ...address, country: 'FRA' })).toEqual([
      'Country must be a two-letter code.',
    ])
    expect(
      v.is(AddressSchema, {
        ...address,
        line1: 'x'.repeat(200),
        city: 'x'.repeat(100),
        postalCode: 'x'.repeat(20),
      }),
    ).toBe(true)
  })

  it('an organization, its default, an invitation and a member update', () => {
    expect(v.parse(OrganizationCreateSchema, { name: ' Syndic ', address })).toEqual({
      name: 'Syndic',
      address,
    })
    expect(messages(OrganizationCreateSchema, { name: '', address })).toEqual(['Name is required.'])
    expect(messages(OrganizationCreateSchema, { name: 'x'.repeat(121), address })).toEqual([
      'Name is too long.',
    ])
    expect(v.is(OrganizationCreateSchema, { name: 'x'.repeat(120), address })).toBe(true)
    expect(v.is(OrganizationCreateSchema, { name: 'x', address, extra: 1 })).toBe(false)
    expect(DEFAULT_TIME_ZONE).toBe('Europe/Paris')
    expect(v.parse(DefaultOrganizationUpdateSchema, { id: ID })).toEqual({ id: ID })
    expect(v.is(DefaultOrganizationUpdateSchema, { id: ID, x: 1 })).toBe(false)
    expect(STOCKTAKE_ROLES).toEqual(['ADMIN', 'MANAGER', 'MEMBER'])
    for (const stocktakeRole of STOCKTAKE_ROLES)
      expect(v.parse(OrganizationUpdateSchema, { stocktakeRole })).toEqual({ stocktakeRole })
    expect(v.parse(OrganizationUpdateSchema, {})).toEqual({})
    expect(messages(OrganizationUpdateSchema, { stocktakeRole: 'CONTACT' })).toEqual([
      'Stocktake role must be ADMIN, MANAGER or MEMBER (a CONTACT never scans in stocktakes).',
    ])
    expect(v.is(OrganizationUpdateSchema, { stocktakeRole: 'member' })).toBe(false)
    for (const handoverReceivers of ['MEMBERS', 'MEMBERS_AND_CONTACTS'])
      expect(v.parse(OrganizationUpdateSchema, { handoverReceivers })).toEqual({ handoverReceivers })
    expect(messages(OrganizationUpdateSchema, { handoverReceivers: 'CONTACTS' })).toEqual([
      'Handover receivers must be MEMBERS or MEMBERS_AND_CONTACTS.',
    ])
    expect(v.is(OrganizationUpdateSchema, { name: 'x' })).toBe(false)
    expect(
      v.parse(InvitationSchema, { email: "O'Brien@Example.com", role: 'CONTACT', locale: 'en' }),
    ).toEqual({
      email: "o'brien@example.com",
      role: 'CONTACT',
      firstName: '',
      lastName: '',
      locale: 'en',
    })
    expect(
      messages(InvitationSchema, { email: 'a@b.fr', role: 'MEMBER', firstName: 'x'.repeat(101) }),
    ).toEqual(['First name is too long.'])
    expect(
      messages(InvitationSchema, { email: 'a@b.fr', role: 'MEMBER', lastName: 'x'.repeat(101) }),
    ).toEqual(['Last name is too long.'])
    expect(v.is(InvitationSchema, { email: 'a@b.fr', role: 'OWNER' })).toBe(false)
    expect(
      v.parse(MemberUpdateSchema, {
        firstName: ' A ',
        lastName: ' B ',
        email: 'A@B.FR',
        role: 'ADMIN',
        status: 'DISABLED',
      }),
    ).toEqual({
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.fr',
      role: 'ADMIN',
      status: 'DISABLED',
    })
    expect(messages(MemberUpdateSchema, { firstName: 'x'.repeat(101) })).toEqual(['First name is too long.'])
    expect(messages(MemberUpdateSchema, { lastName: 'x'.repeat(101) })).toEqual(['Last name is too long.'])
    expect(v.is(MemberUpdateSchema, { firstName: 'x'.repeat(100), lastName: 'x'.repeat(100) })).toBe(true)
    expect(messages(MemberUpdateSchema, { status: 'INVITED' })).toEqual([
      'Status must be ACTIVE or DISABLED.',
    ])
    expect(v.is(MemberUpdateSchema, { status: 'ACTIVE' })).toBe(true)
  })

  it('keys and keychains', () => {
    expect(v.parse(KeyCreateSchema, { type: 'KEY', name: ' Porte ' })).toEqual({ type: 'KEY', name: 'Porte' })
    expect(v.parse(KeyCreateSchema, { type: 'TAG', name: 'Porte', tagId: ID })).toEqual({
      type: 'TAG',
      name: 'Porte',
      tagId: ID,
    })
    expect(messages(KeyCreateSchema, { type: 'BADGE', name: 'x' })).toEqual(['Type must be TAG or KEY.'])
    expect(messages(KeyCreateSchema, { type: 'KEY', name: '' })).toEqual(['Key name is required.'])
    expect(messages(KeyUpdateSchema, { name: 'x'.repeat(121) })).toEqual(['Key name is too long.'])
    expect(v.is(KeyUpdateSchema, { name: 'x'.repeat(120) })).toBe(true)
    expect(v.is(KeyCreateSchema, { type: 'KEY', name: 'x', tagId: ID })).toBe(false)
    expect(v.parse(KeychainCreateSchema, { name: 'Cave' })).toEqual({ name: 'Cave', custodianId: null })
    expect(messages(KeychainCreateSchema, { name: '' })).toEqual(['Name is required.'])
    expect(messages(KeychainCreateSchema, { name: 'x'.repeat(121) })).toEqual(['Name is too long.'])
    expect(v.parse(KeychainUpdateSchema, { custodianId: null })).toEqual({ custodianId: null, reason: '' })
    expect(v.parse(KeychainUpdateSchema, { reason: ' lent ' })).toEqual({ reason: 'lent' })
    expect(messages(KeychainUpdateSchema, { reason: 'x'.repeat(301) })).toEqual(['Reason is too long.'])
    expect(v.is(KeychainUpdateSchema, { reason: 'x'.repeat(300) })).toBe(true)
    expect(TRANSFER_CUSTODY_REASONS).toEqual({ PICKUP: 'Transfer pickup', RETURN: 'Transfer return' })
  })

  it('signing in', () => {
    expect(SIGN_IN_CODE_LENGTH).toBe(6)
    expect(v.parse(SignInCodeSchema, ' 012345 ')).toBe('012345')
    expect(messages(SignInCodeSchema, 12)).toEqual(['Code is required.'])
    for (const code of ['12345', '1234567', 'a12345', '12345a'])
      expect(messages(SignInCodeSchema, code)).toEqual(['Code must be 6 digits.'])
    expect(v.parse(EmailTokenRequestSchema, { email: 'A@B.fr', locale: 'en' })).toEqual({
      email: 'a@b.fr',
      locale: 'en',
    })
    const token = `${'A'.repeat(42)}_`
    expect(v.parse(SessionRequestSchema, { token })).toEqual({ token })
    expect(v.is(SessionRequestSchema, { token: `${token}x` })).toBe(false)
    expect(v.is(SessionRequestSchema, { token: `x${token}` })).toBe(false)
    expect(messages(v.strictObject({ token: v.string() }), {})).not.toEqual([])
    expect(v.parse(SessionRequestSchema, { email: 'a@b.fr', code: '123456' })).toEqual({
      email: 'a@b.fr',
      code: '123456',
    })
  })

  it('a profile update', () => {
    expect(
      v.parse(ProfileUpdateSchema, {
        firstName: ' A ',
        lastName: ' B ',
        phoneNumber: ' +33 (0)1 23.45-67 ',
        locale: 'fr',
      }),
    ).toEqual({
      firstName: 'A',
      lastName: 'B',
      phoneNumber: '+33 (0)1 23.45-67',
      locale: 'fr',
    })
    expect(messages(ProfileUpdateSchema, { firstName: 'x'.repeat(101) })).toEqual(['Name is too long.'])
    expect(v.is(ProfileUpdateSchema, { lastName: 'x'.repeat(100) })).toBe(true)
    expect(messages(PhoneSchema, '1'.repeat(33))).toEqual(['Phone number is too long.'])
    expect(v.is(PhoneSchema, '1'.repeat(32))).toBe(true)
    expect(messages(PhoneSchema, '+33 1 call me')).toEqual([
      'Phone number may hold digits, spaces and + ( ) . - only.',
    ])
    expect(v.parse(PhoneSchema, '')).toBe('')
  })

  it('a found report', () => {
    expect(v.parse(FoundReportSchema, { message: ' Found them ', contact: ' 06 ' })).toEqual({
      message: 'Found them',
      contact: '06',
    })
    expect(messages(FoundReportSchema, { message: ' ', contact: 'x' })).toEqual(['Message is required.'])
    expect(messages(FoundReportSchema, { message: 'x'.repeat(2001), contact: 'x' })).toEqual([
      'Message is too long.',
    ])
    expect(messages(FoundReportSchema, { message: 'x', contact: '' })).toEqual(['Contact is required.'])
    expect(messages(FoundReportSchema, { message: 'x', contact: 'x'.repeat(201) })).toEqual([
      'Contact is too long.',
    ])
    expect(v.is(FoundReportSchema, { message: 'x'.repeat(2000), contact: 'x'.repeat(200) })).toBe(true)
  })
})

describe('what can be ordered', () => {
  it('tag colours are #rrggbb, in lower case', () => {
    expect(v.parse(ColorSchema, ' #1A2B3C ')).toBe('#1a2b3c')
    for (const colour of ['1a2b3c', '#1a2b3', '#1a2b3c4', '#1g2b3c', 'x#1a2b3c'])
      expect(messages(ColorSchema, colour)).toEqual(['Colour must look like #1a2b3c.'])
  })

  it('an alpha code has 2 to 4 letters, in upper case', () => {
    expect(v.parse(AlphaCodeSchema, ' agc ')).toBe('AGC')
    expect(v.parse(AlphaCodeSchema, 'ab')).toBe('AB')
    expect(v.parse(AlphaCodeSchema, 'abcd')).toBe('ABCD')
    for (const code of ['a', 'abcde', 'a1', '1ab'])
      expect(messages(AlphaCodeSchema, code)).toEqual(['The alpha code must be 2 to 4 letters.'])
    expect(first(AlphaCodeSchema, 3)).toBe('The alpha code is required.')
  })

  it('a tag run starts between 1 and 99999 and prints readable colours', () => {
    expect(
      v.parse(TagConfigurationSchema, { ...tagConfiguration, alphaCode: 'agc', shippingAddress: address }),
    ).toEqual({
      ...tagConfiguration,
      shippingAddress: address,
    })
    const wrong = (change: object) => messages(TagConfigurationSchema, { ...tagConfiguration, ...change })
    expect(wrong({ name: '' })).toEqual(['The tag name is required.'])
    expect(wrong({ name: 'x'.repeat(61) })).toEqual(['The tag name is too long.'])
    expect(wrong({ name: 'x'.repeat(60) })).toEqual([])
    expect(wrong({ startNumber: 'one' })).toEqual(['The starting number is required.'])
    expect(wrong({ startNumber: 1.5 })).toEqual(['The starting number must be a whole number.'])
    expect(wrong({ startNumber: 0 })).toEqual(['The starting number must be at least 1.'])
    expect(wrong({ startNumber: 100_000 })).toEqual(['The starting number must be at most 99999.'])
    expect(wrong({ startNumber: 99_999 })).toEqual([])
    expect(wrong({ foregroundColor: '#ffffff', backgroundColor: '#000000' })).toEqual([
      'Scanners cannot read this QR code: use a dark colour on a light background, with a contrast of at least 4.5:1.',
    ])
    expect(wrong({ extra: 1 })).not.toEqual([])
  })

  it('10 to 5000 tags per order', () => {
    expect(v.parse(TagQuantitySchema, 10)).toBe(10)
    expect(v.parse(TagQuantitySchema, 5000)).toBe(5000)
    expect(messages(TagQuantitySchema, '10')).toEqual(['The quantity is required.'])
    expect(messages(TagQuantitySchema, 10.5)).toEqual(['The quantity must be a whole number.'])
    expect(messages(TagQuantitySchema, 9)).toEqual(['At least 10 tags per order.'])
    expect(messages(TagQuantitySchema, 5001)).toEqual(['At most 5000 tags per order.'])
  })

  it('a plan bought once, configured', () => {
    expect(v.parse(PlanConfigurationSchema, planConfiguration)).toEqual(planConfiguration)
    const wrong = (change: object) => v.is(PlanConfigurationSchema, { ...planConfiguration, ...change })
    expect([
      wrong({ recurringIntervalCount: 0 }),
      wrong({ recurringIntervalCount: 1.5 }),
      wrong({ quantity: -1 }),
    ]).toEqual([false, false, false])
    expect([
      wrong({ quantity: 0.5 }),
      wrong({ name: 'x'.repeat(121) }),
      wrong({ name: 'x'.repeat(120) }),
      wrong({ recurringInterval: 'week' }),
    ]).toEqual([false, false, true, false])
    const planItem = {
      productType: 'PLAN',
      productRefId: ID,
      quantity: 1,
      unitAmountInCents: 0,
      configuration: planConfiguration,
    }
    expect(v.parse(CartItemCreateSchema, planItem)).toEqual(planItem)
    expect(messages(CartItemCreateSchema, { ...planItem, quantity: 2 })).toEqual(['A plan is bought once.'])
    expect(v.is(CartItemCreateSchema, { ...planItem, unitAmountInCents: -1 })).toBe(false)
    expect(v.is(CartItemCreateSchema, { ...planItem, unitAmountInCents: 0.5 })).toBe(false)
    const tagItem = {
      productType: 'TAG',
      productRefId: 'tag-standard',
      quantity: 10,
      unitAmountInCents: 500,
      configuration: tagConfiguration,
    }
    expect(v.parse(CartItemCreateSchema, tagItem)).toEqual(tagItem)
    expect(v.is(CartItemCreateSchema, { ...tagItem, productRefId: '' })).toBe(false)
    expect(v.is(CartItemCreateSchema, { ...tagItem, unitAmountInCents: -1 })).toBe(false)
    expect(v.is(CartItemCreateSchema, { ...tagItem, unitAmountInCents: 1.5 })).toBe(false)
    expect(v.parse(CheckoutSchema, {})).toEqual({})
    expect(v.is(CheckoutSchema, { coupon: 'x' })).toBe(false)
  })
})
