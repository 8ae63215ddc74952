import type { Logger } from 'pino'
import type { UserRow } from '../db/schema.ts'

/** The signed-in caller, resolved from the session cookie by the session middleware. */
export type CurrentSession = {
  idHash: string
  user: UserRow
}

export type AppEnv = {
  Variables: {
    requestId: string
    /** Child logger carrying the request id. */
    log: Logger
    session: CurrentSession | null
  }
}
