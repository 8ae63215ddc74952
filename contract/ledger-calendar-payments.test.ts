import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { keeps, messages } from '../tests/schema-checks.ts'
import { ActivityEntrySchema, ActivityQuerySchema, ChainCheckSchema } from './activity.ts'
import { CalendarFeedCreateSchema, CalendarFeedSchema, CalendarTokenParamsSchema } from './calendar.ts'
import {
  LocalLangQuerySchema,
  LocalOutcomeParamsSchema,
  LocalSessionParamsSchema,
  WebhookAnswerSchema,
} from './payments.ts'
import {
  ExtensionDecisionSchema,
  ExtensionRequestSchema,
  TransferListQuerySchema,
  TransferRequestsQuerySchema,
} from './transfers.ts'

const TOKEN = 'A'.repeat(20) + 'b_-'.repeat(7) + '9'.repeat(2)

describe('the ledger’s schemas', () => {
  it('keep a chain check and an entry whole', () => {
    keeps(ChainCheckSchema, { entries: 12, valid: false, brokenAt: 7 })
    keeps(ActivityEntrySchema, {
      seq: 3,
      kind: 'transfer.extended',
      actor: null,
      serverTime: 's',
      clientTime: 'c',
      fromQueue: true,
      keychainIds: ['k'],
      tagIds: [],
      transferIds: ['t'],
      payload: { toDate: '2030-01-20' },
    })
  })

  it('filter by a known kind, ids and real days only', () => {
    keeps(ActivityQuerySchema, {
      kind: 'key.added',
      person: '00000000-0000-4000-8000-000000000001',
      from: '2030-01-01',
    })
    expect(messages(ActivityQuerySchema, { kind: 'party' })).toEqual(['Unknown kind of entry.'])
    expect(messages(ActivityQuerySchema, { from: '2030-02-30' })).toHaveLength(1)
    expect(messages(ActivityQuerySchema, { keychain: 'k1' })).toHaveLength(1)
  })
})

describe('a request for more time, and its answer', () => {
  it('asks for a real day, and nothing else', () => {
    expect(v.parse(ExtensionRequestSchema, { toDate: '2030-01-20' })).toEqual({ toDate: '2030-01-20' })
    expect(v.is(ExtensionRequestSchema, { toDate: '2030-02-30' })).toBe(false)
    expect(v.is(ExtensionRequestSchema, { toDate: '2030-01-20', fromDate: '2030-01-01' })).toBe(false)
  })

  it('is answered approve or refuse, and nothing else', () => {
    for (const decision of ['approve', 'refuse']) {
      expect(v.parse(ExtensionDecisionSchema, { decision })).toEqual({ decision })
    }
    expect(messages(ExtensionDecisionSchema, { decision: 'maybe' })).toEqual([
      'Decision must be approve or refuse.',
    ])
    expect(messages(ExtensionDecisionSchema, { decision: '' })).toEqual([
      'Decision must be approve or refuse.',
    ])
    expect(v.is(ExtensionDecisionSchema, { decision: 'approve', note: 'x' })).toBe(false)
  })

  it('lists transfers filtered by expiry, and requests by openness, with a readable refusal', () => {
    expect(messages(TransferListQuerySchema, { expired: 'yes' })).toEqual(['expired must be true or false.'])
    expect(messages(TransferRequestsQuerySchema, { open: 'yes' })).toEqual(['open must be true or false.'])
    for (const flag of ['true', 'false']) {
      expect(v.is(TransferListQuerySchema, { expired: flag })).toBe(true)
      expect(v.is(TransferRequestsQuerySchema, { open: flag })).toBe(true)
    }
  })

  it('knows year 0 is no day (JavaScript would read it as 1900)', () => {
    expect(v.is(ExtensionRequestSchema, { toDate: '0000-01-01' })).toBe(false)
  })
})

describe('the calendar feeds’ schemas', () => {
  it('make a personal or an organization feed, nothing else, and keep a feed whole', () => {
    expect(v.parse(CalendarFeedCreateSchema, { scope: 'personal' })).toEqual({ scope: 'personal' })
    expect(messages(CalendarFeedCreateSchema, { scope: 'team' })).toEqual([
      'Scope must be organization or personal.',
    ])
    expect(messages(CalendarFeedCreateSchema, { scope: 'personal', extra: 1 })).toHaveLength(1)
    keeps(CalendarFeedSchema, {
      id: 'f',
      scope: 'organization',
      organizationId: 'o',
      organizationName: 'Agence',
      createdAt: 'c',
      url: null,
    })
  })

  it('open a feed by a 43-character token ending in .ics, and nothing else', () => {
    expect(TOKEN).toHaveLength(43)
    expect(v.is(CalendarTokenParamsSchema, { token: `${TOKEN}.ics` })).toBe(true)
    for (const token of [
      TOKEN,
      `${TOKEN}.ics.ics`,
      `x${TOKEN}.ics`,
      `${TOKEN.slice(1)}.ics`,
      `${'é'.repeat(43)}.ics`,
      '.ics',
    ]) {
      expect(messages(CalendarTokenParamsSchema, { token }), token).toEqual(['No such calendar.'])
    }
  })
})

describe('the payment pages’ schemas', () => {
  const SESSION = `${'Ab3_-'.repeat(4)}xy`

  it('take a sandbox session id of 22 base64url characters only', () => {
    expect(SESSION).toHaveLength(22)
    expect(v.parse(LocalSessionParamsSchema, { sessionId: SESSION })).toEqual({ sessionId: SESSION })
    for (const sessionId of [`${SESSION}x`, `x${SESSION}`, SESSION.slice(1), 'é'.repeat(22)]) {
      expect(messages(LocalSessionParamsSchema, { sessionId }), sessionId).toEqual([
        'Malformed payment session id.',
      ])
    }
  })

  it('take the three sandbox outcomes only, the page language, and the webhook’s answers', () => {
    for (const outcome of ['pay', 'fail', 'cancel']) {
      expect(v.parse(LocalOutcomeParamsSchema, { sessionId: SESSION, outcome })).toEqual({
        sessionId: SESSION,
        outcome,
      })
    }
    expect(v.is(LocalOutcomeParamsSchema, { sessionId: SESSION, outcome: 'refund' })).toBe(false)
    expect(v.is(LocalOutcomeParamsSchema, { sessionId: SESSION, outcome: '' })).toBe(false)
    keeps(LocalLangQuerySchema, { lang: 'en' })
    keeps(WebhookAnswerSchema, { received: true, duplicate: true })
    keeps(WebhookAnswerSchema, { received: true })
    expect(v.is(WebhookAnswerSchema, { received: false })).toBe(false)
    expect(v.is(WebhookAnswerSchema, { received: true, duplicate: false })).toBe(false)
  })
})
