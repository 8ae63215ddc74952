import { describe, expect, it } from 'vitest'
import { placeOrder, settleLocally, tagItem } from '../../../tests/server/commerce.ts'
import { makeOrder, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { tagsCsv } from './tags.ts'

const OPERATOR = 'ops@export.example.test'
const t = setupTestApp({ config: { operatorEmails: [OPERATOR] } })

const tag = (name: string, code = 'AGC-00001') => ({
  id: 'i',
  publicId: 'p',
  code,
  name,
  foregroundColor: '#111111',
  backgroundColor: '#ffffff',
  url: 'http://localhost:3000/tags/p',
})

describe('tagsCsv', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and defuses spreadsheet formulas', () => {
    const csv = tagsCsv([
      tag('Cave, sous-sol'),
      tag('Le "grand" bureau'),
      tag('Deux\nlignes'),
      tag('=HYPERLINK("http://evil.example")'),
      tag('+33 1 23'),
      tag('-1'),
      tag('@SUM(A1)'),
    ])
    expect(csv.split('\r\n')).toEqual([
      'code,name,foreground_color,background_color,url',
      'AGC-00001,"Cave, sous-sol",#111111,#ffffff,http://localhost:3000/tags/p',
      'AGC-00001,"Le ""grand"" bureau",#111111,#ffffff,http://localhost:3000/tags/p',
      'AGC-00001,"Deux\nlignes",#111111,#ffffff,http://localhost:3000/tags/p',
      `AGC-00001,"'=HYPERLINK(""http://evil.example"")",#111111,#ffffff,http://localhost:3000/tags/p`,
      "AGC-00001,'+33 1 23,#111111,#ffffff,http://localhost:3000/tags/p",
      "AGC-00001,'-1,#111111,#ffffff,http://localhost:3000/tags/p",
      "AGC-00001,'@SUM(A1),#111111,#ffffff,http://localhost:3000/tags/p",
      '',
    ])
  })

  it('writes the header alone when there are no tags', () => {
    expect(tagsCsv([])).toBe('code,name,foreground_color,background_color,url\r\n')
  })
})

describe('POST /orders/{id}/tags-exports', () => {
  it('downloads a paid order’s tags as a CSV attachment named after the order', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(12, { alphaCode: 'CSV', name: 'Clés, bureau' })])
    expect(
      (await t.post(`/api/orders/${order.id}/tags-exports`, { cookie: admin.cookie, json: {} })).status,
    ).toBe(409)
    await settleLocally(t, admin.cookie, order.id)

    const operator = await t.signIn(OPERATOR)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    for (const cookie of [operator.cookie, manager.cookie, admin.cookie]) {
      const response = await t.post(`/api/orders/${order.id}/tags-exports`, { cookie, json: {} })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="${order.reference}-tags.csv"`,
      )
      const lines = (await response.text()).trimEnd().split('\r\n')
      expect(lines[0]).toBe('code,name,foreground_color,background_color,url')
      expect(lines).toHaveLength(13)
      expect(lines[1]).toMatch(
        /^CSV-00001,"Clés, bureau",#111111,#ffffff,http:\/\/localhost:3000\/tags\/[a-z2-7]{20}$/,
      )
    }
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect(
      (await t.post(`/api/orders/${order.id}/tags-exports`, { cookie: member.cookie, json: {} })).status,
    ).toBe(403)
    const other = await organizationWithAdmin(t, 'Other')
    expect(
      (await t.post(`/api/orders/${order.id}/tags-exports`, { cookie: other.admin.cookie, json: {} })).status,
    ).toBe(404)
  })

  it('refuses an order that is not paid (409)', async () => {
    const { organization } = await organizationWithAdmin(t)
    const operator = await t.signIn(OPERATOR)
    const order = await makeOrder(t, organization.id, { status: 'EXPIRED' })
    const response = await t.post(`/api/orders/${order.id}/tags-exports`, {
      cookie: operator.cookie,
      json: {},
    })
    expect(response.status).toBe(409)
  })
})
