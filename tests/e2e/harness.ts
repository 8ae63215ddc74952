import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import type { Role } from '../../contract/permissions.ts'
import type { Clock } from '../../server/clock.ts'
import { loadConfig } from '../../server/config.ts'
import { memberships, users } from '../../server/db/schema.ts'
import { sessionCookieName } from '../../server/http/session-cookie.ts'
import { createLogger } from '../../server/logger.ts'
import { startServer } from '../../server/main.ts'
import { createSession } from '../../server/modules/auth/sessions.ts'
import { addKey } from '../../server/modules/keychains/keys.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { activateMemberships, addMembership } from '../../server/modules/members/service.ts'
import { createOrder } from '../../server/modules/orders/checkout.ts'
import { PLAN_IDS } from '../../server/modules/plans/catalog.ts'
import { findActivePlan, planConfiguration } from '../../server/modules/plans/service.ts'
import { startSubscription } from '../../server/modules/subscriptions/service.ts'
import { createTags } from '../../server/modules/tags/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { createPostgresDatabase } from '../server/database.ts'
import { migratedPgliteDir } from '../server/pglite-template.ts'
import { freePort } from '../server/processes.ts'
import { saveFailure } from './failure.ts'
import { SIGN_IN_MAIL, signInCodeOf, startMailbox } from './mailbox.ts'

/** The platform operator of browser tests (confirms, produces, ships orders). */
export const OPERATOR_EMAIL = 'ops@trousseau.test'

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** The server's clock in browser tests: real time, which a test may move forward (statuses, expiry). */
class OffsetClock implements Clock {
  #offsetMs = 0

  now(): Date {
    return new Date(Date.now() + this.#offsetMs)
  }

  /** From now on, the server believes it is `instant` (and time runs on from there). */
  jumpTo(instant: Date): void {
    this.#offsetMs = instant.getTime() - Date.now()
  }
}

/** The environment of the real server in production mode on loopback (browser tests, the web benchmark). */
export function productionEnv(options: {
  port: number
  dataDir: string
  smtpUrl: string
  staticDir: string
}) {
  return {
    PORT: String(options.port),
    PUBLIC_URL: `http://localhost:${options.port}`,
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    DATA_DIR: options.dataDir,
    SMTP_URL: options.smtpUrl,
    STATIC_DIR: options.staticDir,
    LOG_LEVEL: 'warn',
  }
}

/**
 * Which of Debian's Chromium builds a browser file drives. `headless-shell` (package chromium-headless-shell,
 * what Playwright itself runs headless tests on): the same Blink and V8 without the desktop browser around
 * them, about a third less CPU per file. `chromium`: the full browser, for what only it has (the Push API).
 */
export type BrowserBuild = 'headless-shell' | 'chromium'

const EXECUTABLES: Record<BrowserBuild, string> = {
  'headless-shell': '/usr/bin/chromium-headless-shell',
  chromium: '/usr/bin/chromium',
}

const browserLaunches = new Map<BrowserBuild, Promise<Browser>>()

/**
 * One Chromium of each build per test worker, shared by the files it runs one after the other (the browser
 * files run with `isolate: false`, so this module outlives a file): each file still gets its own server and
 * fresh browser contexts (no cookie, storage or service worker carries over), and no file pays a browser start.
 * Playwright ends it when the worker exits; a browser that went away is started again.
 */
async function sharedBrowser(build: BrowserBuild): Promise<Browser> {
  const current = await browserLaunches.get(build)?.catch(() => undefined)
  if (current?.isConnected()) return current
  const launch = chromium.launch({ executablePath: EXECUTABLES[build], args: CHROMIUM_ARGS })
  browserLaunches.set(build, launch)
  return launch
}

/**
 * The real product for a browser test: the production build served by the real server, mail delivered over
 * SMTP to a loopback receiver, and Debian's Chromium. The database is PGlite in a temp folder (the embedded
 * default), or, when TEST_DATABASE_URL names a PostgreSQL server (CI), a new database there: the server's
 * queries then run natively rather than in WebAssembly beside the browser (about 13 % less time on the
 * heaviest files, 2 cores). `embedded`: PGlite whatever the environment, for the files that keep the default
 * configuration covered in a browser.
 *
 * `env`: more variables for the server (a test's own, e.g. WEBHOOK_ALLOW_PRIVATE_TARGETS for a loopback
 * receiver); `browser`: the Chromium build the file needs (the headless shell unless it needs the full one).
 */
export async function startStack(
  env: Record<string, string> = {},
  {
    browser: build = 'headless-shell',
    embedded = false,
  }: { browser?: BrowserBuild; embedded?: boolean } = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-e2e-'))
  const postgresUrl = embedded ? undefined : process.env.TEST_DATABASE_URL
  const postgres = postgresUrl ? await createPostgresDatabase(postgresUrl) : null
  // The server's database (DATA_DIR/pglite) starts as a copy of a migrated one; its own migrate() is a no-op.
  if (!postgres) await cp(await migratedPgliteDir(), join(dataDir, 'pglite'), { recursive: true })
  const mailbox = await startMailbox()
  const port = await freePort()
  const config = loadConfig({
    ...productionEnv({ port, dataDir, smtpUrl: mailbox.url, staticDir: 'dist' }),
    OPERATOR_EMAILS: OPERATOR_EMAIL,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  })
  const clock = new OffsetClock()
  const server = await startServer(config, createLogger('warn'), { clock })
  const baseUrl = server.url.replace('127.0.0.1', 'localhost')
  const browser = await sharedBrowser(build)

  async function newContext(): Promise<BrowserContext> {
    return browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } })
  }

  /** A phone: 360×740, touch, mobile viewport (the field screens' size). */
  async function newPhoneContext(): Promise<BrowserContext> {
    return browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    })
  }

  /** Signs in through the UI with the mailed code (from the sign-in page it is on, or a fresh one). */
  async function signInByCode(page: Page, email: string, locale: 'fr' | 'en' = 'fr') {
    const already = mailbox.received.length
    const signInPath = locale === 'fr' ? '/sign-in' : '/en/sign-in'
    if (!page.url().startsWith(baseUrl) || new URL(page.url()).pathname !== signInPath)
      await page.goto(signInPath)
    // The prerendered page answers a click only once hydrated: typed and clicked earlier, the form would
    // submit itself as plain HTML (slow on a busy machine, with two browser files at a time).
    await page.locator('#root[data-ready]').waitFor()
    await page.getByLabel('E-mail').fill(email)
    await page
      .getByRole('button', {
        name: locale === 'fr' ? 'Recevoir un lien de connexion' : 'Receive a sign-in link',
      })
      .click()
    const mail = await mailbox.nextMailTo(email, already, 10_000, SIGN_IN_MAIL)
    await page.getByLabel(locale === 'fr' ? 'Code à 6 chiffres' : '6-digit code').fill(signInCodeOf(mail))
    await page
      .getByRole('button', { name: locale === 'fr' ? 'Se connecter' : 'Sign in', exact: true })
      .click()
  }

  /**
   * Opens the app signed in as `email`, as a returning visitor finds it: the session the sign-in would make
   * (account made or found, invitations accepted) is made on the server and its cookie put in the page's
   * context. For tests whose subject is not the sign-in; the sign-in page itself is `signInByCode`'s.
   */
  async function signIn(page: Page, email: string, locale: 'fr' | 'en' = 'fr') {
    const now = deps.clock.now()
    const user = await activateMemberships(deps.database.db, await signInUser(deps, email, locale), now)
    const { sessionId } = await createSession(deps, user.id, undefined)
    await page
      .context()
      .addCookies([{ name: sessionCookieName(deps.config), value: sessionId, url: baseUrl, httpOnly: true }])
    await page.goto(locale === 'fr' ? '/app' : '/en/app')
  }

  /** A fresh browser context and page; on failure the screenshot and browser log go to test-results/. */
  async function withPage<T>(run: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const context = await newContext()
    const page = await context.newPage()
    const log: string[] = []
    page.on('console', (message) => log.push(`${message.type()}: ${message.text()}`))
    page.on('framenavigated', (frame) => log.push(`navigated: ${frame.url()}`))
    try {
      return await run(page, context)
    } catch (error) {
      await saveFailure(page, log)
      throw error
    } finally {
      await context.close()
    }
  }

  const { deps } = server
  let nextTagNumber = 1

  /** Tags as a paid order will create them (the commerce issue); here straight through the service. */
  async function createTagsFor(
    organizationId: string,
    batch: { alphaCode: string; count: number; name: string },
  ) {
    const created = await createTags(
      deps.database.db,
      organizationId,
      { ...batch, startNumber: nextTagNumber, foregroundColor: '#111827', backgroundColor: '#fde68a' },
      deps.clock.now(),
    )
    nextTagNumber += batch.count
    return created
  }

  /** A keychain holding one TAG key on `tagId`, made by the organization's first admin. */
  async function createKeychainWithTag(organizationId: string, name: string, tagId: string): Promise<string> {
    const [admin] = await deps.database.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'ADMIN')))
    if (!admin) throw new Error('The organization has no admin')
    const keychain = await createKeychain(deps, {
      organizationId,
      actorId: admin.userId,
      keychain: { name, custodianId: null },
    })
    await addKey(deps, { organizationId, keychainId: keychain.id, key: { type: 'TAG', name, tagId } })
    return keychain.id
  }

  /** A member with an account who has signed in before (ACTIVE), straight through the services. */
  async function addMember(organizationId: string, email: string, role: Role, firstName = '') {
    const now = deps.clock.now()
    const [user] = await deps.database.db
      .insert(users)
      .values({ email, firstName, lastName: '', locale: 'fr', createdAt: now, lastSeenAt: now })
      .returning()
    await addMembership(deps.database.db, {
      userId: user!.id,
      organizationId,
      role,
      status: 'ACTIVE',
      now,
    })
    return user!.id
  }

  /** A paid monthly Pro plan for the organization, as if its admin had bought it. */
  async function subscribe(organizationId: string) {
    const [admin] = await deps.database.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'ADMIN')))
    const now = deps.clock.now()
    await deps.database.db.transaction(async (tx) => {
      const plan = await findActivePlan(tx, PLAN_IDS.proMonthly)
      if (!plan || !admin) throw new Error('No Pro plan, or no admin')
      const configuration = planConfiguration(plan)
      const orderId = await createOrder(tx, {
        organizationId,
        userId: admin.userId,
        items: [{ productType: 'PLAN', productRefId: plan.id, quantity: 1, configuration }],
        status: 'PAID',
        now,
      })
      await startSubscription(tx, { organizationId, planId: plan.id, plan: configuration, orderId, now })
    })
  }

  return {
    baseUrl,
    /** The running server's services and database, to set a scene or check what it recorded. */
    deps,
    clock,
    addMember,
    subscribe,
    withPage,
    createTags: createTagsFor,
    createKeychainWithTag,
    mailbox,
    browser,
    newContext,
    newPhoneContext,
    signIn,
    signInByCode,
    async stop() {
      // The browser is the worker's: what this file left open of it is closed, the browser stays.
      await Promise.all(browser.contexts().map((context) => context.close()))
      await server.close()
      await postgres?.drop()
      await mailbox.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export type Stack = Awaited<ReturnType<typeof startStack>>
