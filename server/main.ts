import { readFileSync } from 'node:fs'
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { type Logger, pino } from 'pino'
import { createApp } from './app.ts'
import { type Clock, systemClock } from './clock.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import type { AppDeps } from './deps.ts'
import { answerClientError } from './http/client-errors.ts'
import { createJobs } from './job-handlers.ts'
import { createLogger } from './logger.ts'
import { createMailer } from './mail/mailer.ts'
import { startHousekeeping } from './modules/auth/housekeeping.ts'
import { answerBackupSignals } from './modules/backup/on-signal.ts'
import { LIVENESS_PATH, livenessBody } from './modules/health/routes.ts'
import { scheduleStocktakeSweep } from './modules/stocktakes/notices.ts'
import { fromRoot } from './paths.ts'
import { resolveSessionSecret } from './secret.ts'

export type RunningServer = {
  url: string
  /** The live dependencies (database, clock, mailer…), e.g. for end-to-end tests to seed through services. */
  deps: AppDeps
  close(): Promise<void>
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as {
    version: string
  }
  return pkg.version
}

/**
 * Opens and migrates the database, then listens. PORT 0 picks a free port; a PUBLIC_URL on port 0 (the
 * default with PORT 0) is rewritten to the bound port, so tests can start several servers at once.
 */
export type StartOptions = {
  /** The source of "now" (default: the system clock); browser tests pass one they can move. */
  clock?: Clock
}

/**
 * Answers `GET /api/health/live` straight from the socket, before the app: a supervisor's probe every few
 * seconds neither pays the middleware chain (request id, log line, session, compression…) nor floods the
 * request log. The answer is the app's (200, the same JSON, `no-store`); every other request goes to `next`.
 */
export function livenessShortcut(version: string, next: RequestListener): RequestListener {
  const body = Buffer.from(livenessBody(version))
  const headers = [
    ['Content-Type', 'application/json'],
    ['Content-Length', String(body.length)],
    ['Cache-Control', 'no-store'],
    ['X-Content-Type-Options', 'nosniff'],
  ].flat()
  return (request: IncomingMessage, response: ServerResponse) => {
    const { url } = request
    if (
      request.method === 'GET' &&
      url !== undefined &&
      url.startsWith(LIVENESS_PATH) &&
      (url.length === LIVENESS_PATH.length || url[LIVENESS_PATH.length] === '?')
    ) {
      response.writeHead(200, headers)
      response.end(body)
      return
    }
    next(request, response)
  }
}

export async function startServer(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  options: StartOptions = {},
): Promise<RunningServer> {
  const database = await openDatabase(config)
  await database.migrate()
  const secret = await resolveSessionSecret(config)

  const version = config.appVersion ?? packageVersion()
  let app: ReturnType<typeof createApp>['app'] | undefined
  const server = serve({
    fetch: (request, env) => (app ? app.fetch(request, env) : new Response('Starting', { status: 503 })),
    hostname: config.host,
    port: config.port,
    createServer: ((options: ServerOptions, listener: RequestListener) =>
      createServer(options, livenessShortcut(version, listener))) as typeof createServer,
  })
  server.on('clientError', answerClientError)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  const publicUrl =
    new URL(config.publicUrl).port === '0'
      ? config.publicUrl.replace(/:0(?=\/|$)/, `:${port}`)
      : config.publicUrl
  const runtimeConfig = { ...config, port, publicUrl }

  const base = {
    config: runtimeConfig,
    database,
    mailer: createMailer(runtimeConfig, logger),
    clock: options.clock ?? systemClock,
    logger,
    secret,
    version,
  }
  const jobs = createJobs(base)
  const deps: AppDeps = { ...base, jobs }
  // The daily sweep of recurring stocktakes: enqueued once a day whatever the number of processes.
  await scheduleStocktakeSweep(database.db, base.clock.now())
  app = createApp(deps).app
  const housekeeping = startHousekeeping(deps)
  if (config.jobsPollMs > 0) jobs.start(config.jobsPollMs)
  const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`
  logger.info({ url, publicUrl, database: database.driver, mail: deps.mailer.kind }, 'Trousseau listening')
  if (config.nodeEnv === 'production' && config.paymentProvider === 'local') {
    logger.warn('PAYMENT_PROVIDER=local: orders are paid on the sandbox page, no money moves')
  }

  let closing: Promise<void> | undefined
  // A stop: no new connection (the port closes), in-flight requests finish, the running jobs finish; what is
  // still running after SHUTDOWN_GRACE_MS is cut off (a job cut off is claimed again after its lease).
  const close = () => {
    closing ??= (async () => {
      const grace = config.shutdownGraceMs
      const deadline = Date.now() + grace
      housekeeping.stop()
      const jobsStopped = jobs.stop()
      const drained = new Promise<void>((resolve) => server.close(() => resolve()))
      if ('closeIdleConnections' in server) server.closeIdleConnections()
      const cutOff = setTimeout(() => {
        logger.warn(
          { graceMs: grace },
          'in-flight requests still running at the end of the grace period: closed',
        )
        if ('closeAllConnections' in server) server.closeAllConnections()
      }, grace)
      await drained
      clearTimeout(cutOff)
      const jobsLate = await settledBy(jobsStopped, deadline)
      if (jobsLate) logger.warn({ graceMs: grace }, 'a job was still running at the end of the grace period')
      await deps.mailer.close()
      await database.close()
      logger.info('Trousseau stopped')
    })()
    return closing
  }
  return { url, deps, close }
}

/** Waits for `work` until `deadline` (epoch ms); true when it was still running then. */
async function settledBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()))
  })
  try {
    return await Promise.race([
      work.then(
        () => false as const,
        () => false as const,
      ),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}

async function main() {
  let config: Config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
  // Written asynchronously: a request never waits for its log line, and lines that arrive while a write is
  // under way go out together in the next one. What is still buffered is written out at exit.
  const stdout = pino.destination({ dest: 1, sync: false })
  process.on('exit', () => stdout.flushSync())
  const logger = createLogger(config.logLevel, stdout)
  const running = await startServer(config, logger)
  // `npm run backup` on the embedded database asks this process (see answerBackupSignals).
  const backups = answerBackupSignals(running.deps.database, config.dataDir, logger)
  // `on`, not `once`: a second signal (npm forwards Ctrl-C, users press it twice) must not kill the process
  // mid-shutdown through the default handler; close() is idempotent and the first one finishes the job.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      logger.info({ signal }, 'shutting down')
      backups
        .stop()
        .then(() => running.close())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed')
            process.exit(1)
          },
        )
    })
  }
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `Trousseau failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    process.exit(1)
  })
}
