import type { CartItemCreate, Order, Plan } from '../../contract/commerce.ts'
import { TAG_PRODUCT_ID } from '../../contract/commerce.ts'
import { tagUnitPrice } from '../../contract/pricing.ts'
import { PRICES } from '../../server/modules/prices/prices.ts'
import { TAG_CONFIGURATION } from './fixtures.ts'
import type { TestApp } from './harness.ts'

/** A valid `POST /api/cart/items` TAG body at the server's price. */
export function tagItem(
  quantity = 100,
  configuration: Partial<typeof TAG_CONFIGURATION> & { shippingAddress?: unknown } = {},
): CartItemCreate {
  return {
    productType: 'TAG',
    productRefId: TAG_PRODUCT_ID,
    quantity,
    unitAmountInCents: tagUnitPrice(PRICES, quantity),
    configuration: { ...TAG_CONFIGURATION, ...configuration } as Extract<
      CartItemCreate,
      { productType: 'TAG' }
    >['configuration'],
  }
}

export async function plansOf(t: TestApp, cookie: string): Promise<Plan[]> {
  return ((await (await t.get('/api/plans', { cookie })).json()) as { data: Plan[] }).data
}

async function expectStatus(response: Response, status: number) {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`)
  }
  return response
}

/** Puts the items in the caller's cart and checks out: the new order. */
export async function placeOrder(t: TestApp, cookie: string, items: CartItemCreate[] = [tagItem()]) {
  for (const item of items) await expectStatus(await t.post('/api/cart/items', { cookie, json: item }), 201)
  const response = await expectStatus(await t.post('/api/cart/checkout', { cookie, json: {} }), 201)
  return (await response.json()) as Order
}

/** Opens a sandbox session and presses one of its buttons: the redirect answer. */
export async function settleLocally(
  t: TestApp,
  cookie: string,
  orderId: string,
  outcome: 'pay' | 'fail' | 'cancel' = 'pay',
) {
  const session = await expectStatus(
    await t.post(`/api/orders/${orderId}/sessions`, { cookie, json: {} }),
    201,
  )
  const { url } = (await session.json()) as { url: string }
  const path = new URL(url).pathname
  return t.post(`${path}/${outcome}`, {
    body: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

/** An operator's move of an order. */
export async function operatorMove(t: TestApp, cookie: string, orderId: string, action: string) {
  return t.post(`/api/orders/${orderId}/${action}`, { cookie, json: {} })
}
