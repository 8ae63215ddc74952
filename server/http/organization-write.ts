import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Db } from '../db/client.ts'
import type { OrganizationScope } from './access.ts'
import type { AppEnv, CurrentSession } from './env.ts'
import { idempotent, idempotentResponse } from './idempotency.ts'

/** What a write in the caller's organization is given: who, where, the validated body and the request's instant. */
export type OrganizationWrite<B> = { organizationId: string; userId: string; body: B; now: Date }

/**
 * A route's write in the caller's organization, once per Idempotency-Key (`idempotent`): the organization is part
 * of what the key stands for, so the same body sent after switching organization is another request. Answers
 * `status` with what `write` returns, or the stored answer of a replay.
 */
export async function idempotentInOrganization<B extends object>(
  c: Context<AppEnv>,
  db: Db,
  input: {
    organization: OrganizationScope
    session: CurrentSession
    headers: { 'idempotency-key': string }
    body: B
    now: Date
  },
  request: { name: string; status: ContentfulStatusCode },
  write: (tx: Db, action: OrganizationWrite<B>) => Promise<unknown>,
): Promise<Response> {
  const { organizationId } = input.organization
  const action = { organizationId, userId: input.session.user.id, body: input.body, now: input.now }
  const answer = await idempotent(
    db,
    {
      userId: action.userId,
      key: input.headers['idempotency-key'],
      request: request.name,
      payload: { organizationId, ...input.body },
      now: input.now,
    },
    async (tx) => ({ status: request.status, body: await write(tx, action) }),
  )
  return idempotentResponse(c, answer)
}
