import type { Logger } from 'pino'
import type { Role } from '../../contract/permissions.ts'
import type { UserRow } from '../db/schema.ts'

/** The API token a request came with (`Authorization: Bearer`), instead of a session cookie. */
type TokenCaller =
  | { id: string; kind: 'personal' }
  | { id: string; kind: 'organization'; organizationId: string; role: Role }

/** The signed-in caller, resolved from the session cookie (or an API token) by the session middleware. */
export type CurrentSession = {
  idHash: string
  user: UserRow
  /** The user's role in their selected organization (null: none selected, or no longer a member there). */
  selectedRole: Role | null
  /** Set when the caller authenticated with an API token rather than a session cookie. */
  token?: TokenCaller
}

export type AppEnv = {
  Variables: {
    requestId: string
    /** Child logger carrying the request id. */
    log: Logger
    session: CurrentSession | null
  }
}
