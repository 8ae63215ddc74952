import type { Logger } from 'pino'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import type { JobRunner } from './jobs/runner.ts'
import type { Mailer } from './mail/mailer.ts'

/** Everything the app needs from the outside world; tests swap the clock, mailer and database. */
export type AppDeps = {
  config: Config
  database: Database
  mailer: Mailer
  /** The job queue's runner in this process: `nudge()` after committing a job that should run now. */
  jobs: Pick<JobRunner, 'nudge' | 'drain'>
  clock: Clock
  logger: Logger
  /** Key for every HMAC: session ids, sign-in link tokens and codes. */
  secret: Buffer
  version: string
}
