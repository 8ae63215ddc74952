import { and, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { identityDomains, identityProviders, organizations } from '../db/schema.ts'

const domainOfEmail = (email: string) => email.slice(email.lastIndexOf('@') + 1)

/** The organization whose proven domain the address is in, with its provider; null when none covers it. */
export async function coveringProvider(db: Db, email: string) {
  const [row] = await db
    .select({ provider: identityProviders, organizationName: organizations.name })
    .from(identityDomains)
    .innerJoin(identityProviders, eq(identityProviders.organizationId, identityDomains.organizationId))
    .innerJoin(organizations, eq(organizations.id, identityDomains.organizationId))
    .where(and(eq(identityDomains.domain, domainOfEmail(email)), isNotNull(identityDomains.verifiedAt)))
  return row ?? null
}
