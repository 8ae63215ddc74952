import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Cart, Order, OrderDetails, TagNumbering } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { placeOrder, plansOf, settleLocally, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { createTags } from '../tags/service.ts'
import { alphaCodeFromName, codeRanges, tagLinePlan } from './tag-numbers.ts'

const t = setupTestApp()

const look = { name: 'Old', foregroundColor: '#111111', backgroundColor: '#ffffff' }

async function numbering(cookie: string, query = ''): Promise<TagNumbering> {
  const response = await t.get(`/api/cart/tag-numbers${query}`, { cookie })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as TagNumbering
}

describe('the numbers a tag order will really print', () => {
  it('proposes a code made from the organization’s name and number 1 when it has no tags', async () => {
    const { admin } = await organizationWithAdmin(t, 'Agence Démo')
    expect(await numbering(admin.cookie)).toEqual({
      alphaCode: 'AD',
      nextNumber: 1,
      codes: [{ first: 'AD-00001', last: 'AD-00001', count: 1 }],
    })
  })

  it('proposes the latest code and the number after its highest, and says where a taken range really lands', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    await createTags(
      t.db,
      organization.id,
      { alphaCode: 'DEM', startNumber: 1, count: 60, ...look },
      t.clock.now(),
    )
    expect(await numbering(admin.cookie)).toMatchObject({ alphaCode: 'DEM', nextNumber: 61 })
    // DEM-00001 is taken: the 10 tags continue after DEM-00060, as paying would number them.
    expect(await numbering(admin.cookie, '?alphaCode=dem&startNumber=1&quantity=10')).toEqual({
      alphaCode: 'DEM',
      nextNumber: 61,
      codes: [{ first: 'DEM-00061', last: 'DEM-00070', count: 10 }],
    })
    // A free range is printed as asked.
    expect((await numbering(admin.cookie, '?alphaCode=DEM&startNumber=500&quantity=10')).codes).toEqual([
      { first: 'DEM-00500', last: 'DEM-00509', count: 10 },
    ])
    // Another code has its own series.
    expect(await numbering(admin.cookie, '?alphaCode=CAV&quantity=10')).toMatchObject({
      alphaCode: 'CAV',
      nextNumber: 1,
      codes: [{ first: 'CAV-00001', last: 'CAV-00010', count: 10 }],
    })
  })

  it('shows in the cart, the order and its preview the codes that paying then prints', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    await createTags(
      t.db,
      organization.id,
      { alphaCode: 'AGC', startNumber: 1, count: 60, ...look },
      t.clock.now(),
    )
    // Two lines of the same code, both asking for AGC-00001: the second continues after the first.
    const first = tagItem(10, { startNumber: 1 })
    const second = tagItem(20, { startNumber: 5 })
    await t.post('/api/cart/items', { cookie: admin.cookie, json: first })
    const cart = (await (
      await t.post('/api/cart/items', { cookie: admin.cookie, json: second })
    ).json()) as Cart
    expect(cart.items.map((item) => item.codes)).toEqual([
      [{ first: 'AGC-00061', last: 'AGC-00070', count: 10 }],
      [{ first: 'AGC-00071', last: 'AGC-00090', count: 20 }],
    ])
    // A third line would start after both.
    expect(await numbering(admin.cookie, '?alphaCode=AGC&startNumber=1&quantity=5')).toEqual({
      alphaCode: 'AGC',
      nextNumber: 91,
      codes: [{ first: 'AGC-00091', last: 'AGC-00095', count: 5 }],
    })

    const order = (await (
      await t.post('/api/cart/checkout', { cookie: admin.cookie, json: {} })
    ).json()) as Order
    expect(order.lines.map((line) => line.codes)).toEqual(cart.items.map((item) => item.codes))
    await settleLocally(t, admin.cookie, order.id)
    const paid = (await (
      await t.get(`/api/orders/${order.id}/details`, { cookie: admin.cookie })
    ).json()) as OrderDetails
    expect(paid.tags.map((tag) => tag.code)).toEqual([
      ...Array.from({ length: 30 }, (_, index) => `AGC-${String(61 + index).padStart(5, '0')}`),
    ])
    // Once paid, the tags themselves say it: the lines no longer carry a plan.
    expect(paid.order.lines.every((line) => line.codes === undefined)).toBe(true)
  })

  it('keeps a free range as asked, in the order as in the tags', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10, { alphaCode: 'ZZ', startNumber: 42 })])
    expect(order.lines[0]!.codes).toEqual([{ first: 'ZZ-00042', last: 'ZZ-00051', count: 10 }])
    await settleLocally(t, admin.cookie, order.id)
    const paid = (await (
      await t.get(`/api/orders/${order.id}/details`, { cookie: admin.cookie })
    ).json()) as OrderDetails
    expect(paid.tags[0]!.code).toBe('ZZ-00042')
    expect(paid.tags.at(-1)!.code).toBe('ZZ-00051')
  })

  it('numbers lines of one code after each other, leaves a free range as asked, and lets other codes and plans be', async () => {
    const { admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    await t.post('/api/cart/items', { cookie: admin.cookie, json: planCartItem(plans[0]!) })
    await t.post('/api/cart/items', {
      cookie: admin.cookie,
      json: tagItem(10, { alphaCode: 'QQ', startNumber: 1 }),
    })
    await t.post('/api/cart/items', {
      cookie: admin.cookie,
      json: tagItem(10, { alphaCode: 'QQ', startNumber: 5 }),
    })
    await t.post('/api/cart/items', {
      cookie: admin.cookie,
      json: tagItem(10, { alphaCode: 'QQ', startNumber: 100 }),
    })
    const cart = (await (
      await t.post('/api/cart/items', {
        cookie: admin.cookie,
        json: tagItem(10, { alphaCode: 'RR', startNumber: 500 }),
      })
    ).json()) as Cart
    expect(cart.items.map((item) => [item.productType, item.codes?.[0]?.first ?? null])).toEqual([
      ['PLAN', null],
      ['TAG', 'QQ-00001'],
      // Nothing of QQ exists yet, but the line before books 1–10.
      ['TAG', 'QQ-00011'],
      ['TAG', 'QQ-00100'],
      ['TAG', 'RR-00500'],
    ])
    expect(cart.items[0]!.codes).toBeUndefined()
    // A new QQ line starts after every QQ line of the cart; RR's lines do not count for QQ.
    expect(await numbering(admin.cookie, '?alphaCode=QQ&quantity=3')).toEqual({
      alphaCode: 'QQ',
      nextNumber: 110,
      codes: [{ first: 'QQ-00110', last: 'QQ-00112', count: 3 }],
    })
  })

  it('shows no codes for a line that no longer finds enough free numbers, and the lines after it go on', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    // FUL-00001 to FUL-99979 taken: 20 numbers are left, up to 99,999.
    await t.db.execute(sql`
      insert into tags (public_id, organization_id, alpha_code, number, code, name, foreground_color,
        background_color, created_at)
      select 'full-' || n, ${organization.id}, 'FUL', n, 'FUL-' || lpad(n::text, 5, '0'), 'Plein', '#111111',
        '#ffffff', now()
      from generate_series(1, 99979) n`)
    const add = async (quantity: number) =>
      (await (
        await t.post('/api/cart/items', {
          cookie: admin.cookie,
          json: tagItem(quantity, { alphaCode: 'FUL' }),
        })
      ).json()) as Cart
    await add(10)
    await add(15)
    const cart = await add(10)
    expect(cart.items.map((item) => item.codes)).toEqual([
      [{ first: 'FUL-99980', last: 'FUL-99989', count: 10 }],
      [],
      [{ first: 'FUL-99990', last: 'FUL-99999', count: 10 }],
    ])
    expect(await numbering(admin.cookie, '?alphaCode=FUL&quantity=10')).toEqual({
      alphaCode: 'FUL',
      nextNumber: 99_999,
      codes: [],
    })
    // Writing 99,979 tags takes PGlite 15 s of a quiet 2-core machine, and twice that while another suite runs.
  }, 60_000)

  it('refuses a malformed query with a 400 that names the field, and a member who may not order', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const [query, message] of [
      ['?alphaCode=1', 'The alpha code must be 2 to 4 letters.'],
      ['?startNumber=0', 'startNumber must be at least 1.'],
      ['?startNumber=abc', 'startNumber must be a whole number.'],
      ['?quantity=1234567', 'quantity must be a whole number.'],
      ['?quantity=6000', 'quantity must be at most 5000.'],
    ]) {
      const response = await t.get(`/api/cart/tag-numbers${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
      expect(JSON.stringify(await response.json()), query).toContain(message)
    }
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.get('/api/cart/tag-numbers', { cookie: member.cookie })).status).toBe(403)
  })
})

describe('alphaCodeFromName', () => {
  it.each([
    ['Agence Démo', 'AD'],
    ['Cave', 'CAV'],
    ['Société Générale des Eaux', 'SGD'],
    ['Ô', 'TAG'],
    ['42', 'TAG'],
    ['l’Île-de-France', 'LID'],
    ['Ab', 'AB'],
    ['', 'TAG'],
    ['Été 2', 'ETE'],
    ['« Société Générale des Eaux »', 'SGD'],
    ['3 rue de la Paix', 'RDL'],
  ])('%s → %s', (name, code) => expect(alphaCodeFromName(name)).toBe(code))
})

describe('tagLinePlan', () => {
  it('numbers new tags only: not a plan, a reprint, or a line without a code', () => {
    const configuration = { alphaCode: 'DEM', startNumber: 7 }
    expect(tagLinePlan({ productType: 'TAG', quantity: 10, configuration })).toEqual({
      alphaCode: 'DEM',
      startNumber: 7,
      count: 10,
    })
    expect(
      tagLinePlan({ productType: 'TAG', quantity: 10, configuration: { alphaCode: 'DEM' } })?.startNumber,
    ).toBe(1)
    expect(tagLinePlan({ productType: 'PLAN', quantity: 1, configuration })).toBeNull()
    expect(
      tagLinePlan({
        productType: 'TAG',
        quantity: 1,
        configuration: { ...configuration, replacesTagId: 'x' },
      }),
    ).toBeNull()
    expect(tagLinePlan({ productType: 'TAG', quantity: 10, configuration: { startNumber: 7 } })).toBeNull()
  })
})

describe('codeRanges', () => {
  it('groups consecutive numbers into runs', () => {
    expect(codeRanges('DEM', [3, 4, 5, 9, 11, 12])).toEqual([
      { first: 'DEM-00003', last: 'DEM-00005', count: 3 },
      { first: 'DEM-00009', last: 'DEM-00009', count: 1 },
      { first: 'DEM-00011', last: 'DEM-00012', count: 2 },
    ])
    expect(codeRanges('DEM', [])).toEqual([])
  })
})
