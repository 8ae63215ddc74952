import { randomInt } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { Profile } from '../../contract/auth.ts'
import type { Locale } from '../../contract/locale.ts'
import { createApp } from '../../server/app.ts'
import { type Config, loadConfig } from '../../server/config.ts'
import type { Database } from '../../server/db/client.ts'
import type { AppDeps } from '../../server/deps.ts'
import { sessionCookieName } from '../../server/http/session-cookie.ts'
import { createJobs } from '../../server/job-handlers.ts'
import { createLogger } from '../../server/logger.ts'
import type { Mailer } from '../../server/mail/mailer.ts'
import { issueSignInToken } from '../../server/modules/auth/sign-in-tokens.ts'
import { TEST_EPOCH, TestClock } from './clock.ts'
import { openTestDatabase, truncateAll } from './database.ts'
import { CapturedMailer } from './mailer.ts'
import { uncounted } from './statement-count.ts'

export const TEST_PUBLIC_URL = 'http://localhost:3000'
const TEST_SECRET = 'test-secret-test-secret-test-secret-0123'

export type TestRequest = {
  method?: string
  /** Serialized as the body, with `Content-Type: application/json`. */
  json?: unknown
  /** A raw body; set the content type yourself in `headers`. */
  body?: string
  /** A `name=value` cookie string, e.g. from `signIn()`. */
  cookie?: string
  headers?: Record<string, string>
  /** Client address (sent as X-Forwarded-For; the test config trusts the proxy). Random by default. */
  ip?: string
  /** Origin header; defaults to PUBLIC_URL's origin, `null` leaves it out. */
  origin?: string | null
}

export type SignedIn = { cookie: string; profile: Profile }

export type TestAppOptions = {
  config?: Partial<Config>
  /** Share a database between apps in one file (the caller closes it). */
  database?: Database
  clock?: TestClock
  /** Another mailer than the captured one (a real SMTP one, for delivery tests). */
  mailer?: Mailer
  /**
   * Whether a request that nudged the job runner (it enqueued a mail) runs the due jobs before it answers
   * (default true: the mail is there when it answers, as the server's nudge sends it at once). Timed jobs wait
   * for the clock and `runJobs()`.
   */
  runJobsAfterRequests?: boolean
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

export function testConfig(overrides: Partial<Config> = {}, dataDir = './data'): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_PUBLIC_URL,
    SESSION_SECRET: TEST_SECRET,
    TRUST_PROXY: 'true',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // Webhook tests deliver to a receiver on loopback; the strict tests set it back to false.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  })
  return { ...base, ...overrides }
}

/** A random private address, so per-IP limits only bite tests that ask for them. */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

/**
 * The real app on a fresh database with a settable clock, a mailer that keeps messages in memory and
 * captured log lines. Requests go through `app.request` (no socket), the same middleware as production.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-test-'))
  const config = testConfig(options.config, dataDir)
  const database = options.database ?? (await openTestDatabase())
  const clock = options.clock ?? new TestClock()
  const mail = new CapturedMailer()
  const logLines: string[] = []
  const logger = createLogger(
    config.logLevel,
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk))
        done()
      },
    }),
  )
  const base = {
    config,
    database,
    mailer: options.mailer ?? mail,
    clock,
    logger,
    secret: Buffer.from(TEST_SECRET),
    version: 'test',
  }
  const jobs = createJobs(base)
  // The app's nudge ("a job is due now") is noted, and the request that caused it drains before it answers.
  let nudged = false
  const deps: AppDeps = {
    ...base,
    jobs: {
      nudge: () => {
        nudged = true
      },
      drain: () => jobs.drain(),
    },
  }
  const runJobsAfterRequests = options.runJobsAfterRequests ?? true
  const { app, registry } = createApp(deps, { checkResponses: true })
  const origin = new URL(config.publicUrl).origin

  async function request(path: string, init: TestRequest = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (init.origin !== null && !headers.has('origin')) headers.set('origin', init.origin ?? origin)
    if (init.cookie) headers.set('cookie', init.cookie)
    headers.set('x-forwarded-for', init.ip ?? randomIp())
    let body = init.body
    if (init.json !== undefined) {
      body = JSON.stringify(init.json)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const response = await app.request(new URL(path, origin).toString(), {
      method: init.method ?? 'GET',
      headers,
      body,
    })
    if (nudged && runJobsAfterRequests) {
      nudged = false
      await uncounted(() => jobs.drain())
    }
    return response
  }

  const withMethod =
    (method: string) =>
    (path: string, init: Omit<TestRequest, 'method'> = {}) =>
      request(path, { ...init, method })

  /** Signs in through POST /api/sessions with a freshly issued link token (no mail, no send limits). */
  async function signIn(email: string, { locale = 'fr' as Locale } = {}): Promise<SignedIn> {
    const { token } = await issueSignInToken(deps, email.trim().toLowerCase(), locale)
    const response = await request('/api/sessions', { method: 'POST', json: { token } })
    if (response.status !== 201)
      throw new Error(`signIn(${email}) answered ${response.status}: ${await response.text()}`)
    return { cookie: sessionCookie(response, config)!, profile: (await response.json()) as Profile }
  }

  return {
    app,
    registry,
    deps,
    config,
    database,
    db: database.db,
    clock,
    mail,
    /** Runs every job due by the test clock (reminders after `clock.advance`, retries). */
    runJobs: () => jobs.drain(),
    logLines,
    request,
    get: withMethod('GET'),
    post: withMethod('POST'),
    put: withMethod('PUT'),
    patch: withMethod('PATCH'),
    delete: withMethod('DELETE'),
    signIn,
    /** Empties every table and the captured mail, for tests that need a clean slate. */
    async reset() {
      await truncateAll(database)
      mail.clear()
    },
    async close() {
      await jobs.stop()
      if (!options.database) await database.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** `name=value` of the session cookie set by a response, or undefined. */
export function sessionCookie(response: Response, config: Pick<Config, 'publicUrl'>): string | undefined {
  const name = sessionCookieName(config)
  const header = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
  const pair = header?.split(';')[0]
  return pair && pair !== `${name}=` ? pair : undefined
}

/**
 * `const t = setupTestApp()` at the top of a test file: one app and database for the file, created before the
 * first test and closed after the last. Properties are read through to the live instance.
 */
export function setupTestApp(options: TestAppOptions = {}): TestApp {
  let instance: TestApp | undefined
  beforeAll(async () => {
    instance = await createTestApp(options)
  })
  afterAll(async () => {
    await instance?.close()
  })
  return new Proxy({} as TestApp, {
    get(_target, property) {
      if (!instance) throw new Error('setupTestApp(): the app exists only inside tests and hooks')
      return instance[property as keyof TestApp]
    },
  })
}

/**
 * `setupTestApp()` with its clock set back to TEST_EPOCH (2030-01-15T09:00Z: 10:00 in Paris) before each test,
 * and, with `clearMail`, the mail it captured emptied too.
 */
export function setupTestAppAtEpoch(
  options: { clearMail?: boolean; config?: Partial<Config> } = {},
): TestApp {
  const t = setupTestApp(options.config ? { config: options.config } : {})
  beforeEach(() => {
    t.clock.set(TEST_EPOCH)
    if (options.clearMail) t.mail.clear()
  })
  return t
}

let emailCounter = 0
/** A fresh address per call: tests sharing one database never trip over each other's users or limits. */
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1
  return `${prefix}-${emailCounter}-${randomInt(1_000_000)}@example.test`
}
