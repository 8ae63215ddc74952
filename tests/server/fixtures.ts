import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { type OrderStatus, TAG_PRODUCT_ID } from '../../contract/commerce.ts'
import type { Role } from '../../contract/permissions.ts'
import {
  cartItems,
  keychains,
  localPaymentSessions,
  memberships,
  orderLines,
  orders,
  organizations,
  type TagRow,
  users,
} from '../../server/db/schema.ts'
import { createTags } from '../../server/modules/tags/service.ts'
import { type SignedIn, type TestApp, uniqueEmail } from './harness.ts'

type MembershipStatus = (typeof memberships.$inferInsert)['status']

/** A valid `POST /api/organizations` body (with spaces and a lower-case country the schema normalizes). */
export const NEW_ORGANIZATION = {
  name: '  Agence du Port ',
  address: { line1: '3 quai Est', city: 'Marseille', postalCode: '13002', country: 'fr' },
}

/** Inserts an organization directly (fast; the endpoint has its own tests). */
export async function createOrganization(t: TestApp, name = 'Acme') {
  const [organization] = await t.db
    .insert(organizations)
    .values({
      name,
      addressLine1: '1 rue de la Paix',
      city: 'Paris',
      postalCode: '75002',
      country: 'FR',
      createdAt: t.clock.now(),
    })
    .returning()
  return organization!
}

export async function addMember(
  t: TestApp,
  input: { userId: string; organizationId: string; role: Role; status?: MembershipStatus; select?: boolean },
) {
  await t.db.insert(memberships).values({
    userId: input.userId,
    organizationId: input.organizationId,
    role: input.role,
    status: input.status ?? 'ACTIVE',
    createdAt: t.clock.now(),
  })
  if (input.select ?? true) {
    await t.db
      .update(users)
      .set({ selectedOrganizationId: input.organizationId })
      .where(eq(users.id, input.userId))
  }
}

export type Member = SignedIn & { id: string; email: string }

/** A new user, signed in, with an ACTIVE membership of the given role in the organization (selected). */
export async function signedInMember(
  t: TestApp,
  organizationId: string,
  role: Role,
  options: { status?: MembershipStatus; select?: boolean } = {},
): Promise<Member> {
  const email = uniqueEmail(role.toLowerCase())
  const signedIn = await t.signIn(email)
  await addMember(t, { userId: signedIn.profile.id, organizationId, role, ...options })
  return { ...signedIn, id: signedIn.profile.id, email }
}

/** An organization with a signed-in ADMIN who has it selected. */
export async function organizationWithAdmin(t: TestApp, name = 'Acme') {
  const organization = await createOrganization(t, name)
  const admin = await signedInMember(t, organization.id, 'ADMIN')
  return { organization, admin }
}

let nextTagNumber = 1

/** Tags through the service, numbered on from every earlier call so codes never collide. */
export async function makeTags(
  t: TestApp,
  organizationId: string,
  count = 1,
  alphaCode = 'TST',
): Promise<TagRow[]> {
  const startNumber = nextTagNumber
  nextTagNumber += count
  return createTags(
    t.db,
    organizationId,
    { alphaCode, startNumber, count, name: 'Test', foregroundColor: '#111111', backgroundColor: '#ffee00' },
    t.clock.now(),
  )
}

/** A keychain inserted directly (no custody log entry). */
export async function makeKeychain(
  t: TestApp,
  organizationId: string,
  name = 'Keychain',
  custodianId?: string,
) {
  const now = t.clock.now()
  const [row] = await t.db
    .insert(keychains)
    .values({ organizationId, name, custodianId: custodianId ?? null, createdAt: now, updatedAt: now })
    .returning()
  return row!
}

/** A valid TAG line configuration (dark on light, so a scanner reads it). */
export const TAG_CONFIGURATION = {
  name: 'Agence',
  alphaCode: 'AGC',
  startNumber: 1,
  foregroundColor: '#111111',
  backgroundColor: '#ffffff',
}

/** A TAG line put straight into a user's cart of an organization (the endpoint has its own tests). */
export async function putTagsInCart(
  t: TestApp,
  input: { userId: string; organizationId: string; quantity?: number; alphaCode?: string },
) {
  const [row] = await t.db
    .insert(cartItems)
    .values({
      userId: input.userId,
      organizationId: input.organizationId,
      productType: 'TAG',
      productRefId: TAG_PRODUCT_ID,
      quantity: input.quantity ?? 10,
      configuration: { ...TAG_CONFIGURATION, alphaCode: input.alphaCode ?? 'AGC' },
      createdAt: t.clock.now(),
    })
    .returning()
  return row!
}

/**
 * An order of 10 tags inserted directly in the given status (amounts as the price list makes them), with an
 * open sandbox payment session when `session` is set.
 */
export async function makeOrder(
  t: TestApp,
  organizationId: string,
  options: { status?: OrderStatus; session?: boolean; createdByUserId?: string } = {},
) {
  const now = t.clock.now()
  const quantity = 10
  const [order] = await t.db
    .insert(orders)
    .values({
      organizationId,
      createdByUserId: options.createdByUserId ?? null,
      status: options.status ?? 'CREATED',
      quantity,
      subtotalInCents: 2500,
      discountInCents: 0,
      shippingInCents: 790,
      freeShipping: false,
      taxInCents: 658,
      totalInCents: 3948,
      shippingAddress: {
        line1: '1 rue de la Paix',
        line2: '',
        city: 'Paris',
        postalCode: '75002',
        country: 'FR',
      },
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  await t.db.insert(orderLines).values({
    orderId: order!.id,
    position: 0,
    productType: 'TAG',
    productRefId: TAG_PRODUCT_ID,
    quantity,
    unitAmountInCents: 250,
    baseUnitAmountInCents: 250,
    configuration: TAG_CONFIGURATION,
  })
  let sessionId: string | null = null
  if (options.session) {
    sessionId = randomBytes(16).toString('base64url')
    await t.db.insert(localPaymentSessions).values({
      id: sessionId,
      orderId: order!.id,
      status: 'open',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 60 * 60 * 1000),
    })
    await t.db
      .update(orders)
      .set({
        paymentProvider: 'local',
        paymentSessionId: sessionId,
        paymentSessionUrl: `http://x/${sessionId}`,
      })
      .where(eq(orders.id, order!.id))
  }
  return { ...order!, sessionId }
}
