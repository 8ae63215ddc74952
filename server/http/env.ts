import type { Logger } from 'pino'
import type { Role } from '../../contract/permissions.ts'
import type { UserRow } from '../db/schema.ts'

/** The signed-in caller, resolved from the session cookie by the session middleware. */
export type CurrentSession = {
  idHash: string
  user: UserRow
  /** The user's role in their selected organization (null: none selected, or no longer a member there). */
  selectedRole: Role | null
}

export type AppEnv = {
  Variables: {
    requestId: string
    /** Child logger carrying the request id. */
    log: Logger
    session: CurrentSession | null
  }
}
