import { aliasedTable, and, desc, eq, inArray, isNull } from 'drizzle-orm'
import type { ApiToken, ApiTokenKind, CreatedApiToken } from '../../../contract/api-tokens.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import { type ApiTokenRow, apiTokens, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { apiTokenHash, newApiToken } from './secrets.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'secret'>
type Creator = { id: string; firstName: string; lastName: string; email: string }

function toApiToken(row: ApiTokenRow, creator: Creator): ApiToken {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    prefix: `trs_${row.prefix}`,
    organizationId: row.organizationId,
    role: row.role,
    createdBy: creator,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  }
}

const creators = aliasedTable(users, 'creator')
const creatorColumns = {
  id: creators.id,
  firstName: creators.firstName,
  lastName: creators.lastName,
  email: creators.email,
}

/** Tokens not revoked (expired ones too, so their owner sees why they stopped), newest first. */
async function listWhere(deps: Deps, scope: ReturnType<typeof and>): Promise<ApiToken[]> {
  const rows = await deps.database.db
    .select({ token: apiTokens, creator: creatorColumns })
    .from(apiTokens)
    .innerJoin(creators, eq(creators.id, apiTokens.userId))
    .where(and(scope, isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
  return rows.map((row) => toApiToken(row.token, row.creator))
}

export const listPersonalTokens = (deps: Deps, userId: string) =>
  listWhere(deps, and(eq(apiTokens.kind, 'personal'), eq(apiTokens.userId, userId)))

/** An organization's tokens: its API tokens and its identity provider's (`scim`). */
const organizationKinds = (organizationId: string) =>
  and(inArray(apiTokens.kind, ['organization', 'scim']), eq(apiTokens.organizationId, organizationId))

export const listOrganizationTokens = (deps: Deps, organizationId: string) =>
  listWhere(deps, organizationKinds(organizationId))

type NewToken = {
  creator: Creator
  name: string
  expiresAt: string | null
} & (
  | { kind: Extract<ApiTokenKind, 'personal'> }
  | { kind: 'organization' | 'scim'; organizationId: string; role: Role }
)

/** Makes the token and answers it with its row, this once: only its prefix and keyed hash are kept. */
export async function createApiToken(deps: Deps, input: NewToken): Promise<CreatedApiToken> {
  const now = deps.clock.now()
  const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt)
  if (expiresAt && expiresAt <= now) {
    throw new ApiError(400, ErrorCode.validation, 'The expiry must be in the future.', {
      issues: [{ path: 'expiresAt', message: 'The expiry must be in the future.' }],
    })
  }
  const { prefix, token } = newApiToken()
  const [row] = await deps.database.db
    .insert(apiTokens)
    .values({
      prefix,
      secretHash: apiTokenHash(deps.secret, token),
      name: input.name,
      kind: input.kind,
      userId: input.creator.id,
      organizationId: input.kind === 'personal' ? null : input.organizationId,
      role: input.kind === 'personal' ? null : input.role,
      createdAt: now,
      expiresAt,
    })
    .returning()
  if (!row) throw new Error('api token insert returned no row')
  return { apiToken: toApiToken(row, input.creator), token }
}

/** Revokes at once: the next request with it answers 401. Another user's or organization's token is a 404. */
export async function revokeApiToken(
  deps: Deps,
  id: string,
  owner: { kind: 'personal'; userId: string } | { kind: 'organization'; organizationId: string },
): Promise<void> {
  const scope =
    owner.kind === 'personal'
      ? and(eq(apiTokens.kind, 'personal'), eq(apiTokens.userId, owner.userId))
      : organizationKinds(owner.organizationId)
  const revoked = await deps.database.db
    .update(apiTokens)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(apiTokens.id, id), scope, isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id })
  if (revoked.length === 0) throw notFound('No such API token.')
}

/**
 * An organization token works while its creator is an ADMIN there; once they are not (demoted, disabled), their
 * tokens of that organization are revoked for good, so making them ADMIN again does not bring a token back
 * that its organization may have forgotten. Called in the transaction that takes the role away, and by the
 * token lookup for a change made some other way.
 */
export async function revokeTokensOfFormerAdmin(
  db: Db,
  former: { userId: string; organizationId: string },
  now: Date,
): Promise<void> {
  await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(
      and(
        inArray(apiTokens.kind, ['organization', 'scim']),
        eq(apiTokens.userId, former.userId),
        eq(apiTokens.organizationId, former.organizationId),
        isNull(apiTokens.revokedAt),
      ),
    )
}
